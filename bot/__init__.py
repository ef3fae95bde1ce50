"""Glory's Discord bot: everything that talks to Discord lives here, no game rules."""
