// Words for what a battle does by itself, and for why a spell cannot be cast now: pure functions of
// the public battle data the board already holds (its view, the card faces), no DOM and no window,
// so node's test runner checks them (tests/js/battle-words.test.mjs). The texts go through the `t`
// and `tn` the caller passes (static/js/i18n.js), so the extractor reads their literal msgids here.

/** The battle's preparation steps in order (R9.1): 0 attacker's quick summon, 1 attacker's
 * formation, 2 defender's quick summon, 3 defender's formation, 4 initiative, 5 the fight. */
export const FIGHT = 5;

export function stepIndex(step, stepPlayer, attacker) {
  if (step === "quick") return stepPlayer === attacker ? 0 : 2;
  if (step === "formation") return stepPlayer === attacker ? 1 : 3;
  if (step === "initiative") return 4;
  return FIGHT;
}

/** The (step, step player) of a preparation index. */
export function stepAt(i, attacker) {
  if (i >= FIGHT) return {step: "fight", stepPlayer: null};
  if (i === 4) return {step: "initiative", stepPlayer: null};
  return {step: i % 2 ? "formation" : "quick", stepPlayer: i < 2 ? attacker : 1 - attacker};
}

/** The step an engine event belongs to, or null when it may come at any step. */
export function eventStep(e, attacker) {
  if (e.type === "quick_summoned") return e.player === attacker ? 0 : 2;
  if (e.type === "formation") return e.player === attacker ? 1 : 3;
  if (e.type === "initiative") return 4;
  if (["declared", "passed", "no_attack", "attack", "resolved", "fizzled"].includes(e.type)) return FIGHT;
  return null;
}

/**
 * One line for a preparation step that went by with no event: a quick summon nobody added to, or a
 * formation skipped (R9.6). `ctx`: {player, me (null for a spectator), name (the player's name),
 * chose (the player was asked and chose nobody), party (card ids of the player's party)}.
 * The foe's empty quick summon never says why: whether their hand held a Quick monster is hidden.
 */
export function skippedLine(index, ctx, t) {
  const mine = ctx.player === ctx.me;
  const name = ctx.name;
  if (index === 0 || index === 2) {
    if (!mine) return t("{name} adds no one at the quick summon.", {name});
    return ctx.chose ? t("You add no one at the quick summon.") : t("You have no Quick monster that fits: nothing to add.");
  }
  if (index === 1 || index === 3) {
    const one = (ctx.party || []).length <= 1;
    if (mine) return one ? t("Your party is one monster: no formation to set.") : t("Your party is all one card: no formation to set.");
    return one ? t("{name}’s party is one monster: no formation to set.", {name}) : t("{name}’s party is all one card: no formation to set.", {name});
  }
  return null;
}

/**
 * Why the player cannot cast the spell `card` (a card face: element, mana, timing) now, or null
 * when nothing public says so (then the engine's legal list decides). `ctx`, from the view:
 * {phase, battle (the view's battle or null), me, waiting (the player is waited for), foeName,
 * elementWord (element → the word of the page's language)}.
 */
export function spellWhy(card, ctx, t, tn) {
  const b = ctx.battle;
  if (ctx.phase !== "battle" || !b) return t("battle only");
  if (b.step !== "fight") return t("only once the fight begins, after the initiative roll");
  if (b.simultaneous) return t("no spells in a simultaneous attack");
  if (b.spell_lock) return t("no spells in this battle");
  const el = ctx.elementWord ? ctx.elementWord(card.element) : card.element;
  const mana = card.mana ?? 0;
  const pools = (b.slots && b.slots[String(ctx.me)]) || {};
  const free = (k) => (pools[k] ? Math.max(0, pools[k].total - pools[k].used) : 0);
  const total = (k) => (pools[k] ? pools[k].total : 0);
  if (mana > 0 && !total(card.element) && !total("wild")) return t("needs a {element} slot: none in this party", {element: el});
  if (free(card.element) + free("wild") < mana) {
    return tn("needs {n} {element} slot: {free} free", "needs {n} {element} slots: {free} free", mana,
      {element: el, free: free(card.element) + free("wild")});
  }
  const answering = (b.chain || []).length > 0;
  if (card.timing === "counter" && !answering) return t("a Counter: only as an answer to a declaration");
  if (card.timing === "normal" && answering) return t("Normal: only in your own window, not as an answer");
  if (!ctx.waiting) return t("not while {name} decides", {name: ctx.foeName});
  if (answering) return t("it cannot answer this declaration");
  return t("no target it can take now");
}
