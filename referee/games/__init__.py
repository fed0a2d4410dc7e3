"""One module per game; each exposes GAME following referee.engine.Game."""
