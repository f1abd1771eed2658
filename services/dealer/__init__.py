"""The dealer: the rule engine (engine/) and the table service around it."""
