"""Games as a product: creating, checking and storing moves (play), online games (online), the story
(story), the game log in each language (gamelog), the board's settings (boardsettings)."""
