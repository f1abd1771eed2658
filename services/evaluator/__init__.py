"""The hand evaluator: ranking tables, batch evaluation, showdown, equity, and its gRPC server."""
