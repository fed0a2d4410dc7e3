"""Each seat's token: the key to enter that player's moves from a phone.

Why derived, not stored: a token is an HMAC of the match and the player under the user's key
(referee/record/key.py, a file outside the database), so a restarted `referee serve --seats`
prints the same links and the phones keep working, while the match record holds no token
(nothing in the database lets someone who reads it act for a seat). Without a key file the
tokens are random and last as long as the server.
"""

from __future__ import annotations

import hmac
import secrets

from referee.record import Match

PURPOSE = "referee seat token v1"


def seat_tokens(match: Match) -> dict[str, str]:
    """Each player's token (player -> token), the same for a match whenever it is served."""
    from referee.record.key import mac

    out = {}
    for p in match.players:
        derived = mac(PURPOSE, match.id, match.created, match.game, p)
        out[p] = derived[:32] if derived else secrets.token_urlsafe(24)
    return out


class Seats:
    """The seats of one match: who a token belongs to (compared in constant time)."""

    def __init__(self, match: Match):
        self.match = match
        self.tokens = seat_tokens(match)

    def player(self, token: str | None) -> str | None:
        """The seat's player for `token`, or None when it is no seat's token."""
        if not token:
            return None
        found = None
        for player, t in self.tokens.items():
            if hmac.compare_digest(t.encode(), token.encode("utf-8", "replace")):
                found = player
        return found

    def link(self, base: str, player: str) -> str:
        """The seat's link: the page's address with the seat's token (and the LAN token)."""
        sep = "&" if "?" in base else "?"
        return f"{base}{sep}seat={self.tokens[player]}"
