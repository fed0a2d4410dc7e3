"""Card Game Simulator (CGS) export: a game as CGS's own custom-game folder (cgs.json,
AllCards.json and the card, back and board images), per the published FinolDigital.Cgs.Json
specification (generator/cgs/export.py)."""
