"""Ink for print shops: the press profile CMYK output is made for, and the total-ink cap.

profile   the CMYK ICC profile (SWOP coated #3, CGATS TR 003) and the littleCMS transform
          from sRGB through it, via Pillow's ImageCms
limit     total ink (C + M + Y + K) capped at a limit: 300 % by default, a shop's own figure
          where it has one (DriveThruCards 240 %)
"""
