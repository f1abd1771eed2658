"""The lobby: balances, tables, seating, the button draw, buy-ins and rebuys."""
