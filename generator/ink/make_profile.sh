#!/bin/sh
# How swop-tr003.icc was made (not run by the build: the profile is committed beside this file).
# Needs Debian's icc-profiles-free (the CGATS TR 003 characterization data, zlib licence) and
# argyll (ArgyllCMS's colprof; the profiles it writes are not covered by its AGPL).
#   apt-get install icc-profiles-free argyll && sh generator/ink/make_profile.sh
# -qm: medium-quality tables; -kr: black generation ramped from light to dark (greys mix inks
# up to the mid-tones, then black takes over); -l300: the press's 300 % total-ink limit;
# -nc: the measurement data is not copied into the profile.
set -e
here=$(dirname "$0")
work=$(mktemp -d)
cp /usr/share/color/icc/TR003.ti3 "$work/swop-tr003.ti3"
colprof -qm -nc -kr -l300 \
  -D "SWOP Coated #3 (CGATS TR 003), pnp" \
  -C "Made with ArgyllCMS from the ANSI CGATS TR 003 characterization data (icc-profiles-free, zlib licence); source: ANSI/CGATS/SWOP TR 003-2007" \
  "$work/swop-tr003"
cp "$work/swop-tr003.icc" "$here/swop-tr003.icc"
rm -r "$work"
