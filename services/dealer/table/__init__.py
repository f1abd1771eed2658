"""The table as a pure state machine, like the engine: `TableState` folded from its
events by `apply` (state.py), one value per command (commands.py), and
`decide(state, command, now) -> events` (decide.py). services.dealer.tables is the
shell around it: the log, the clocks, the store and the fan-out."""
