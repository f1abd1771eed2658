"""The platform's vocabulary, declared once: cards' enums, actions, table options, events.

The engine, the dealer, the lobby and the SDK all import these values; nothing here
imports anything but the standard library (and `poker.limits`'s constants). Modules:
enums (streets, decisions, action kinds, structures ...), actions (`Action`,
`LegalActions`), config (`Level`, `PlayerIn`, `TableConfig`), events (a hand's events
and who sees them), table_events (the dealer's events around the hands), seats (seat
order from the button), errors (the domain errors of a bad config or action).
"""
