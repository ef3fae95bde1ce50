"""Cogs, one per area of commands; loaded by ``GloryBot.setup_hook``."""
