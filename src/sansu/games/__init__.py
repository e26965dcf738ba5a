"""The game engines, one module each; a module's ``GAME`` registers it."""
