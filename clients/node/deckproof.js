// The fair-deck proof (R3, R12's dealing order, R39's seeded permutation), checked in
// JavaScript from the .proto comments alone (table_events.proto: HandStarted.commitment,
// DeckRevealed, DeckSeeded).
//
// R3: for each deck position i (0..51), h_i = SHA-256(s_i || i || card_i), with s_i the
// position's 16-byte salt, i and card_i (R1's index: 4 * rank + suit) one byte each; the
// commitment C is the lowercase hex of SHA-256(h_0 || ... || h_51). Every event that opens
// a card to this viewer carries its salt; its position follows from R12 (player p of n in
// dealing order holds p and n+p; flop 2n+1..2n+3, turn 2n+5, river 2n+7). With R39 the card
// dealt at position j is the one committed at position perm[j]. At the end DeckRevealed
// gives h_i for every position not opened to the viewer: the checker computes the others
// itself, and SHA-256 of the 52 must be C.
"use strict";

const crypto = require("node:crypto");

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

/** R1: "As" -> 4 * rank index + suit index. */
function cardIndex(text) {
  const rank = RANKS.indexOf(text[0]);
  const suit = SUITS.indexOf(text[1]);
  if (text.length !== 2 || rank < 0 || suit < 0) throw new Error(`not a card: ${text}`);
  return 4 * rank + suit;
}

function sha256(...parts) {
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** R3: h_i = SHA-256(s_i || i || card_i). */
function positionHash(position, card, salt) {
  return sha256(Buffer.from(salt), Buffer.from([position, card]));
}

/** R3: C = SHA-256(h_0 || ... || h_51), lowercase hex. */
function commitmentOf(hashes) {
  return sha256(...hashes.map((h) => Buffer.from(h))).toString("hex");
}

/** R39: the permutation the seeds (seat order) draw, SHA-256 counter mode + Fisher-Yates. */
function permutation(seeds) {
  const key = sha256(...seeds.map((s) => Buffer.concat([Buffer.from([s.length]), Buffer.from(s)])));
  let block = Buffer.alloc(0);
  let at = 0;
  let counter = 0;
  const nextByte = () => {
    if (at >= block.length) {
      const k = Buffer.alloc(4);
      k.writeUInt32BE(counter++);
      block = sha256(key, k);
      at = 0;
    }
    return block[at++];
  };
  const p = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i--) {
    const n = i + 1;
    const limit = 256 - (256 % n);
    let byte = nextByte();
    while (byte >= limit) byte = nextByte();
    const j = byte % n;
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

/** R12: seats in dealing order, left of the button first, the button last. */
function dealingOrder(seats, button) {
  const ordered = [...seats].sort((a, b) => a - b);
  return [...ordered.filter((s) => s > button), ...ordered.filter((s) => s <= button)];
}

/** R12: the deck positions of a street's board cards for n players. */
function boardPositions(n, street) {
  const start = 2 * n;
  return { STREET_FLOP: [start + 1, start + 2, start + 3], STREET_TURN: [start + 5],
           STREET_RIVER: [start + 7] }[street] || [];
}

const IDENTITY = Array.from({ length: 52 }, (_, i) => i);

/**
 * Follows a table's events (TableEvent objects as @grpc/proto-loader decodes them with
 * `oneofs: true`) and checks the proof of every hand whose deck is revealed.
 * `verified` counts the hands proven; `violations` lists what failed, by hand.
 */
class FairDeckChecker {
  constructor() {
    this.hands = new Map();
    this.perms = new Map();
    this.verified = 0;
    this.unverified = 0;
    this.violations = [];
  }

  feed(event) {
    const kind = event.event;
    const body = event[kind];
    const handId = event.hand_id;
    if (kind === "deck_seeded") {
      const seeds = [...body.seeds].sort((a, b) => a.seat - b.seat).map((s) => s.seed);
      const perm = permutation(seeds);
      if (body.permutation.length && body.permutation.some((v, i) => Number(v) !== perm[i])) {
        this.violate(handId, "DeckSeeded's permutation is not the one its seeds draw (R39)");
      }
      this.perms.set(handId, perm);
      return;
    }
    if (kind === "hand_started") {
      const seats = body.players.map((p) => p.seat);
      this.hands.set(handId, { commitment: body.commitment, order: dealingOrder(seats, body.button),
                               perm: this.perms.get(handId) || IDENTITY, opened: new Map(),
                               problems: [] });
      this.perms.delete(handId);
      return;
    }
    const hand = this.hands.get(handId);
    if (!hand) return; // a hand begun before this viewer came: nothing to check it with
    const n = hand.order.length;
    if ((kind === "hole_cards_dealt" || kind === "cards_shown") && body.cards.length) {
      const p = hand.order.indexOf(body.seat);
      if (p < 0) hand.problems.push(`seat ${body.seat} got cards but was not dealt in`);
      else this.open(hand, [p, n + p], body.cards, body.salts, `seat ${body.seat}'s cards`);
    } else if (kind === "board_dealt") {
      this.open(hand, boardPositions(n, body.street), body.cards, body.salts, body.street);
    } else if (kind === "hand_voided") {
      this.hands.delete(handId);
    } else if (kind === "deck_revealed") {
      this.hands.delete(handId);
      if (body.withheld) {
        this.unverified += 1;
        return;
      }
      const problem = hand.problems[0] || this.check(hand, body);
      if (problem) this.violate(handId, problem);
      else this.verified += 1;
    }
  }

  open(hand, positions, cards, salts, what) {
    if (positions.length !== cards.length || salts.length !== cards.length) {
      hand.problems.push(`${what}: ${cards.length} cards, ${salts.length} salts where R12 ` +
                         `deals ${positions.length}`);
      return;
    }
    positions.forEach((j, k) => {
      const before = hand.opened.get(j);
      if (before && before.card !== cards[k]) {
        hand.problems.push(`${what}: position ${j} was opened as ${before.card}, now ${cards[k]}`);
      }
      hand.opened.set(j, { card: cards[k], salt: salts[k] });
    });
  }

  /** The reveal's problem with the hand, or "" when it proves the commitment. */
  check(hand, reveal) {
    if (reveal.commitment !== hand.commitment) return "the reveal names another commitment";
    if (reveal.hashes.length !== 52) return `the reveal has ${reveal.hashes.length} hashes, not 52`;
    const hashes = reveal.hashes.map((h) => Buffer.from(h));
    for (const [j, { card, salt }] of hand.opened) {
      const q = hand.perm[j];
      const mine = positionHash(q, cardIndex(card), salt);
      if (hashes[q].length && !hashes[q].equals(mine)) {
        return `${card} with its salt does not hash to h_${q} (position ${j}, R12)`;
      }
      hashes[q] = mine;
    }
    const missing = hashes.map((h, i) => (h.length ? -1 : i)).filter((i) => i >= 0);
    if (missing.length) return `no hash for positions ${missing.join(",")}`;
    const digest = commitmentOf(hashes);
    if (digest !== hand.commitment) {
      return `the hashes do not make the commitment (${digest} != ${hand.commitment})`;
    }
    return "";
  }

  violate(handId, problem) {
    this.violations.push(`hand ${handId}: ${problem}`);
  }
}

module.exports = { FairDeckChecker, boardPositions, cardIndex, commitmentOf, dealingOrder,
                   permutation, positionHash };
