"""One folder per game, each the same shape, so a sixth game is one more folder like these:

    __init__.py   GAME, the game's Rules (referee.engine), found by its name (referee.registry)
    model.py      the state and the moves as values; the rules as data (ids and text)
    rules.py      legality and effects: the Rules subclass, delegating to the modules below
    notation.py   moves as typed and printed: parse_move, format_move
    position.py   positions typed in to settle disputes: write_position, read_position
    view.py       the table as text: show
    picture.py    the table as SVG, for `referee serve` and `show --svg`: picture
    dealer.py     a Dealer (referee.dealing) that plays the hidden part in simulations

A game may keep more modules of its own (coda/sealing.py, tripple_domino/board.py); the
contract test (tests/test_game_contract.py) checks the shared ones.
"""
