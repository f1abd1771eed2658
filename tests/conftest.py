"""The test process's start: it runs gRPC on the I/O engine the services run on.

Importing the suite changes no environment variable, so the tests choose the engine
here, as the `poker` command does, before any test module imports grpc; the services
and scripts they start inherit it (poker/grpc_engine.py).
"""

from poker.grpc_engine import prefer_polling_engine

prefer_polling_engine()
