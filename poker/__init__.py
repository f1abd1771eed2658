"""Shared ground of the poker suite: generated API code, logging, serving, the `poker` command.

Importing it (or any module of the suite) changes nothing in the process: gRPC's I/O
engine is chosen by the entry points (poker/grpc_engine.py).
"""
