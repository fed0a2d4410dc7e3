"""referee: table-side rules, scores and disputes for the bundled games."""
