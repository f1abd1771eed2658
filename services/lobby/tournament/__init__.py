"""Tournaments (RULES.md T1-T9): the director in the lobby and its pure rules.

`structure` (T1: what is announced, the level clock), `balance` (T5 balancing, T6
breaking), `places` (T8), `payouts` (T2) are pure; `store` keeps a tournament in the
lobby's database, `director` runs it against the dealers, `service` is its gRPC face.
"""
