"""Loopback Discord: a local REST + gateway emulator that a real discord.py process connects to."""
