// The poker suite's gRPC services for Node.js, loaded at run time from the repository's
// .proto files (protos/poker/v1) with @grpc/proto-loader: no generated code.
"use strict";

const path = require("node:path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTOS = path.resolve(__dirname, "..", "..", "protos");

// Field names as in the .proto files; 64-bit integers as Numbers (every amount is at most
// 2^53-1, poker/limits.py), enums by name, the oneof case named in its own field
// (TableEvent.event = "hand_started", ...), unset fields with their defaults.
const LOAD_OPTIONS = { keepCase: true, longs: Number, enums: String, defaults: true,
                       oneofs: true, includeDirs: [PROTOS] };

let loaded = null;

/** The poker.v1 package: LobbyService, DealerService, EvaluatorService and their messages. */
function pokerV1() {
  if (!loaded) {
    const definition = protoLoader.loadSync(
      ["poker/v1/lobby.proto", "poker/v1/dealer.proto", "poker/v1/evaluator.proto"],
      LOAD_OPTIONS);
    loaded = grpc.loadPackageDefinition(definition).poker.v1;
  }
  return loaded;
}

/** `authorization: Bearer <token>` call metadata (none without a token: a spectator). */
function bearer(token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set("authorization", `Bearer ${token}`);
  return metadata;
}

function lobbyClient(address) {
  return new (pokerV1().LobbyService)(address, grpc.credentials.createInsecure());
}

function dealerClient(address) {
  return new (pokerV1().DealerService)(address, grpc.credentials.createInsecure());
}

/** A unary call as a promise: call(client, "JoinTable", request, token); token may be null. */
function call(client, method, request, token, deadlineMs = 10000) {
  return new Promise((resolve, reject) => {
    client[method](request, bearer(token), { deadline: Date.now() + deadlineMs },
      (err, reply) => (err ? reject(err) : resolve(reply)));
  });
}

module.exports = { bearer, call, dealerClient, grpc, lobbyClient, pokerV1 };
