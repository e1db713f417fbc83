"""Infrastructure the services stand on: storage, seat tokens, presence. Imports nothing above it."""
