"""Running the bot as a process: settings, start-up, version, workers, /about, /health."""
