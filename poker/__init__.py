"""Shared ground of the poker suite: generated API code, logging, serving, the `poker` command."""
