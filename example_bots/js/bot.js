#!/usr/bin/env node
'use strict';
/**
 * A Bid Euchre arena bot in JavaScript, for Node.js.
 *
 * It speaks the protocol straight from proto/bideuchre/v1/arena.proto: the
 * .proto file is loaded at start-up by @grpc/proto-loader and the stream is
 * opened by @grpc/grpc-js; no generated code. The referee starts it with
 * ARENA_ADDRESS (a gRPC target, dialled as it is: unix:/PATH for its seat's
 * socket, host:port against `arena serve`), ARENA_TOKEN (the seat's token)
 * and ARENA_SEED (to seed its random choices) in its environment:
 *
 *   arena match --bot js='node example_bots/js/bot.js' --bot random='python -m example_bots.random_bot'
 *
 * The session: Hello first, then answer each DecisionRequest with one Action,
 * until Shutdown (exit 0). A fatal Error or a stream that ends without a
 * Shutdown is exit 1. The choices themselves are in strategy.js.
 */

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { decide, seededRandom } = require('./strategy');

const BOT_NAME = path.basename(__dirname); // the bot's folder names it (as arena new names a bot)
const BOT_VERSION = require('./package.json').version;
const PROTOCOL_VERSION = 1;
// proto/ beside this file (a bot started with `arena new`), else the repository's
const PROTO_ROOT = [path.join(__dirname, 'proto'), path.resolve(__dirname, '..', '..', 'proto')].find((dir) => fs.existsSync(dir));
const PROTO_FILE = 'bideuchre/v1/arena.proto';

/** The bideuchre.v1 package, built from the .proto file at run time. */
function loadProtocol() {
  const definition = protoLoader.loadSync(PROTO_FILE, {
    includeDirs: [PROTO_ROOT],
    keepCase: true, // field names exactly as in the .proto: request_id, legal_cards
    enums: String, // enum values by name: 'DECISION_KIND_PLAY', 'TRUMP_HEARTS'
    longs: String, // uint64 request ids as decimal text, echoed back unchanged
    defaults: true, // fields absent on the wire read as their zero value ([] for lists)
    oneofs: true, // msg.message names the member of the `message` oneof that is set
  });
  return grpc.loadPackageDefinition(definition).bideuchre.v1;
}

function say(text) {
  process.stderr.write(`${BOT_NAME}: ${text}\n`);
}

function main() {
  const address = process.env.ARENA_ADDRESS;
  const token = process.env.ARENA_TOKEN;
  if (!address || !token) {
    say('set ARENA_ADDRESS (the referee\'s gRPC target: unix:/PATH or host:port) and ARENA_TOKEN (the seat token); `arena serve` prints both');
    process.exit(2);
  }
  const seedText = process.env.ARENA_SEED || crypto.randomBytes(8).toString('hex');

  const arena = loadProtocol();
  const client = new arena.Arena(address, grpc.credentials.createInsecure());
  const call = client.Play();
  call.write({ hello: { token, bot_name: BOT_NAME, bot_version: BOT_VERSION, protocol_version: PROTOCOL_VERSION } });

  let game = null; // what GameStart said about the current game, and its random generator
  let shutdown = false;
  const answered = {}; // decisions answered, by kind, for the goodbye line

  // Leave with `code` once the stream is closed; a moment's grace, then go regardless.
  const finish = (code) => {
    process.exitCode = code;
    client.close();
    setTimeout(() => process.exit(code), 1000).unref();
  };

  call.on('data', (msg) => {
    switch (msg.message) {
      case 'welcome':
        say(`playing as ${msg.welcome.player} (referee ${msg.welcome.referee_version})`);
        break;
      case 'game_start': {
        const start = msg.game_start;
        // Everything kept per game starts afresh here; the process may play another seat next game.
        game = { ...start, rng: seededRandom(`${seedText}:${start.game_id}`) };
        break;
      }
      case 'decision': {
        const request = msg.decision;
        const choice = decide(request, game, game.rng);
        call.write({ action: { request_id: request.request_id, ...choice } });
        answered[request.kind] = (answered[request.kind] || 0) + 1;
        break;
      }
      case 'game_over':
        game = null;
        break;
      case 'error': {
        const { code, message, request_id: requestId, fatal } = msg.error;
        say(`referee error ${code} (request ${requestId}): ${message}`);
        if (fatal) {
          call.cancel();
          finish(1);
        }
        break;
      }
      case 'shutdown':
        shutdown = true;
        say(`shutdown (${msg.shutdown.reason}); answered ${JSON.stringify(answered)}`);
        call.end(); // half-close: nothing more to send
        finish(0);
        break;
      default:
        say(`ignoring an unknown message ${JSON.stringify(msg)}`);
    }
  });

  call.on('error', (err) => {
    if (shutdown || err.code === grpc.status.CANCELLED) return;
    say(`the stream to ${address} failed: ${err.details || err.message}`);
    finish(1);
  });

  call.on('end', () => {
    if (!shutdown && process.exitCode === undefined) {
      say('the referee closed the stream without a Shutdown');
      finish(1);
    }
  });
}

main();
