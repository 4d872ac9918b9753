"""A story chapter in player words: its goal (``goal_text``, ``goal_short``) and how a chapter with a
set start begins (``start_words``), with the lands named as the board names them, never an id like H1
(docs/story.md). Plain functions of the chapter's data: the chapters themselves are
``storychapters.py``'s."""


def possessive(name):
    """ "the River Kappa's", "Goblin Scouts'" (a name is written as it stands, "The" lowered mid-sentence)."""
    if name.startswith("The "):
        name = "the " + name[4:]
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def land_words(land, opponent=None, lang="en"):
    """A land as the board names it: the bases by whose they are, the others by their label (L3)."""
    if land == "H1":
        if lang == "ja":
            return f"{opponent}の本陣" if opponent else "相手の本陣"
        return f"{possessive(opponent)} base" if opponent else "the enemy base"
    if land == "H0":
        return "自分の本陣" if lang == "ja" else "your base"
    return f"土地{land}" if lang == "ja" else land


def goal_text(goal, lang="en", opponent=None):
    """The goal in player words: land names as the board shows them, never an id like H1."""
    limit = goal.get("by_round")
    if goal["type"] == "win":
        if lang == "ja":
            return f"{limit}巡目までに勝利する" if limit else "相手の旅団長をすべて倒して勝利する（12巡の判定での勝ちも可）"
        return (f"Win by round {limit}" if limit else
                "Win: destroy every enemy leader (a win at the round-12 judgment counts too)")
    name = land_words(goal["land"], opponent, lang)
    if lang == "ja":
        return f"{limit}巡目までに{name}を取る"
    return f"Take {name} by round {limit}"


def goal_short(goal, lang="en", opponent=None):
    """The goal as the board's goal bar says it, before the progress: "Take the Goblin Scouts' base"."""
    if goal["type"] == "win":
        return "勝利する" if lang == "ja" else "Win the battle"
    name = land_words(goal["land"], opponent, lang)
    return f"{name}を取る" if lang == "ja" else f"Take {name}"


def start_words(game, opponent, lang="en"):
    """How a chapter that starts from ``game`` (its set position, webapp/game/storychapters.py
    ``Chapter.start_position``) begins, in words: round, whose turn, what is on the map. ``opponent`` is
    the chapter's opponent's name in ``lang``."""
    s = game.state
    units = game.view(0)["units"]
    mine = sum(1 for u in units if u["owner"] == 0)
    theirs = sum(1 for u in units if u["owner"] == 1)
    name = opponent if lang == "ja" else possessive(opponent)
    if lang == "ja":
        return (f"この章は決まった局面から始まります：{s.round}巡目のあなたの手番。旅団長は選択済みで、"
                f"あなたのモンスター{mine}体と{name}のモンスター{theirs}体がすでに盤上にいます。")
    return (f"This chapter starts from a set position: round {s.round}, your turn. The leaders are chosen, and "
            f"{mine} of your monsters and {theirs} of {name} monsters are already on the map.")
