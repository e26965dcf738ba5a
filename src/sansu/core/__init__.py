"""The shared vocabulary of all games: protocol, options, cells, records, registry."""
