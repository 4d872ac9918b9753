"""Helpers for store tests: deck files and whole-database comparisons."""


def write_deck(folder, slug, counts, loaner=True, name="Test Brigade"):
    """Write a deck file in the format of cards/decks/*.toml; return its folder."""
    folder.mkdir(parents=True, exist_ok=True)
    cards = "\n".join(f'{cid} = {n}' for cid, n in counts.items())
    (folder / f"{slug}.toml").write_text(
        f'[deck]\nid = "{slug}"\nloaner = {str(loaner).lower()}\n'
        f'name = {{ en = "{name}", ja = "テスト旅団" }}\n'
        f'description = {{ en = "A test deck.", ja = "テスト用のデッキ。" }}\n'
        f'[deck.cards]\n{cards}\n', encoding="utf-8")
    return folder


def table_rows(db):
    """{table: its rows, sorted} for every table of ``db``."""
    return {name: sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr) for name in db.table_names()}
