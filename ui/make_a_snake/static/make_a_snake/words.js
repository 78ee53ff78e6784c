// Make-a-snake's page in words: pure helpers of game.js (tested in tests/js/).

/** A stack in words: "blue: 3 tiles left", "red: empty". */
export function stackWords(colour, left) {
  if (!left) return `${colour}: empty`;
  return `${colour}: ${left} tile${left === 1 ? "" : "s"} left`;
}

/**
 * What the player may take, in words, from the die and the takeable colours the
 * server gives (an empty rolled stack lets the player take from any other).
 */
export function takeWords(die, colours) {
  const shown = die ? `The die shows ${die[0]} and ${die[1]}. ` : "";
  if (!colours.length) return shown;
  const rolled = die ? colours.every((c) => die.includes(c)) : true;
  const list = colours.length === 1 ? colours[0]
    : `${colours.slice(0, -1).join(", ")} or ${colours[colours.length - 1]}`;
  return `${shown}${rolled ? "" : "A rolled stack is empty, so any stack will do. "}`
    + `Choose a stack to take from: ${list}.`;
}
