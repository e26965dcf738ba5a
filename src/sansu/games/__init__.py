"""The game engines, one module (or package) each; a module's ``GAME`` registers it."""
