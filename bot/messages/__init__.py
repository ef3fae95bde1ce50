"""The bot's messages: what they contain and carry (controls, menus, pages), in which language."""
