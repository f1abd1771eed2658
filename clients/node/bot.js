#!/usr/bin/env node
// A poker bot in Node.js, written from the .proto files alone: it buys in through the lobby
// (LobbyService.JoinTable), plays its seat over one DealerService.Play stream, checks the
// fair-deck proof of every hand it sees (R3, R39: deckproof.js), sits out after --hands of
// its own hands, leaves the table (its stack back in its balance) and prints one JSON line:
// hands played, proofs verified, violations, refusals.
//
//   POKER_LOBBY=localhost:50053 POKER_TOKEN=<player token> POKER_TABLE=<table id> \
//     node clients/node/bot.js --hands 5
//
// Exit code 0 when every proof checked, 1 on a proof that failed, 2 on an error, 3 when
// --timeout-s passed first.
"use strict";

const crypto = require("node:crypto");
const { parseArgs } = require("node:util");
const { call, bearer, dealerClient, lobbyClient } = require("./client.js");
const { FairDeckChecker } = require("./deckproof.js");

function options() {
  const { values } = parseArgs({
    options: {
      lobby: { type: "string", default: process.env.POKER_LOBBY || "localhost:50053" },
      token: { type: "string", default: process.env.POKER_TOKEN || "" },
      table: { type: "string", default: process.env.POKER_TABLE || "" },
      hands: { type: "string", default: "5" },
      "buy-in": { type: "string", default: "0" },
      seed: { type: "string", default: "1" },
      "timeout-s": { type: "string", default: "120" },
    },
  });
  if (!values.token || !values.table) {
    throw new Error("give --token and --table (or POKER_TOKEN and POKER_TABLE)");
  }
  return values;
}

/** A small deterministic generator (mulberry32), so a run can be repeated. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What to do at a turn (TurnStarted.legal_actions): mostly check or call, sometimes raise. */
function decide(legal, rng) {
  if (legal.decision === "DECISION_SHOW_OR_MUCK") {
    return { kind: legal.can_show ? "ACTION_KIND_SHOW" : "ACTION_KIND_MUCK", amount: 0 };
  }
  const bet = legal.bet_kind && legal.bet_kind !== "ACTION_KIND_UNSPECIFIED";
  if (bet && rng() < 0.15) return { kind: legal.bet_kind, amount: legal.min_to };
  if (legal.can_check) return { kind: "ACTION_KIND_CHECK", amount: 0 };
  if (legal.can_call && rng() < 0.85) return { kind: "ACTION_KIND_CALL", amount: 0 };
  return { kind: "ACTION_KIND_FOLD", amount: 0 };
}

async function main() {
  const opts = options();
  const wanted = Number(opts.hands);
  const rng = random(Number(opts.seed));
  const lobby = lobbyClient(opts.lobby);
  // The table's last event before this seat: its stream starts after it, so no turn of an
  // earlier sitting is answered again, and every hand it shows began with this seat there.
  const { table } = await call(lobby, "GetLobbyTable", { table_id: opts.table }, opts.token);
  const peek = dealerClient(table.dealer_address);
  const before = await call(peek, "GetTable", { table_id: opts.table }, null);
  peek.close();
  const joined = await call(lobby, "JoinTable", {
    table_id: opts.table, buy_in: Number(opts["buy-in"]), request_id: crypto.randomUUID(),
  }, opts.token);
  const seat = joined.seat;
  const dealer = dealerClient(joined.dealer_address);
  const checker = new FairDeckChecker();
  const summary = { player: joined.player.player_id, seat, buy_in: joined.buy_in,
                    hands_played: 0, hands_seen: 0, actions: 0, refused: [], verified: 0,
                    unverified: 0, violations: [], left: "", balance: 0 };
  const open = new Set(); // hands this seat was dealt into and whose deck is not revealed yet
  let satOut = false; // PlayerSatOut of this seat seen: no later hand deals it in
  let busted = false;
  let sittingOut = false;

  const stream = dealer.Play(bearer(joined.seat_token));
  const finished = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error("timed out"), { exit: 3 })),
                             Number(opts["timeout-s"]) * 1000);
    const done = () => {
      clearTimeout(timer);
      stream.cancel();
      resolve();
    };
    stream.on("error", (err) => {
      if (err.code !== 1) reject(err); // 1: CANCELLED, our own end of the stream
    });
    stream.on("data", (reply) => {
      for (const event of reply.events) {
        checker.feed(event);
        const kind = event.event;
        const body = event[kind];
        if (kind === "hand_started") {
          summary.hands_seen += 1;
          if (body.players.some((p) => p.seat === seat)) open.add(event.hand_id);
        } else if (kind === "turn_started" && body.seat === seat) {
          const { kind: action, amount } = decide(body.legal_actions, rng);
          summary.actions += 1;
          stream.write({ action: { hand_id: event.hand_id, action_number: body.action_number,
                                   kind: action, amount } });
        } else if (kind === "hand_ended" && open.has(event.hand_id)) {
          summary.hands_played += 1;
          const mine = body.stacks.find((s) => s.seat === seat);
          busted = mine !== undefined && mine.stack === 0;
          if (summary.hands_played >= wanted && !sittingOut) {
            sittingOut = true;
            call(dealer, "SitOut", { table_id: opts.table, seat }, joined.seat_token)
              .catch(reject);
          }
        } else if ((kind === "deck_revealed" || kind === "hand_voided")) {
          open.delete(event.hand_id);
        } else if (kind === "player_sat_out" && body.seat === seat) {
          satOut = true;
        }
      }
      if (reply.action_result && reply.action_result.code !== 0) {
        summary.refused.push(reply.action_result.message);
      }
      if ((satOut || busted) && open.size === 0) done();
    });
    stream.write({ start: { table_id: opts.table, after_sequence: before.table.sequence } });
  });
  await finished;
  const left = await call(lobby, "LeaveTable", { table_id: opts.table,
                                                 request_id: crypto.randomUUID() }, opts.token);
  Object.assign(summary, { verified: checker.verified, unverified: checker.unverified,
                           violations: checker.violations, left: left.status,
                           balance: left.player.balance });
  lobby.close();
  dealer.close();
  return summary;
}

if (require.main === module) {
  main().then((summary) => {
    console.log(JSON.stringify(summary));
    process.exit(summary.violations.length ? 1 : 0);
  }, (err) => {
    console.error(`bot: ${err.code !== undefined ? `${err.code} ` : ""}${err.message}`);
    process.exit(err.exit || 2);
  });
}

module.exports = { decide, main };
