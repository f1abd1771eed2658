"""Shared ground of the poker suite: generated API code, logging, serving, the `poker` command."""

from poker.grpc_engine import prefer_polling_engine

prefer_polling_engine()  # before anything imports grpc: see poker/grpc_engine.py
