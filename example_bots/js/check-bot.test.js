'use strict';
/**
 * A bot's first test: `arena check-bot` puts the bot through every kind of decision on every preset, a whole
 * game of two hands, and the protocol's Hello, Error, restart and Shutdown. Run by `npm test` (node --test);
 * ARENA names the arena command.
 */
const assert = require('node:assert');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { test } = require('node:test');

test('the bot passes arena check-bot', () => {
  const arena = process.env.ARENA || 'arena';
  const bot = `${path.basename(__dirname)}=node bot.js`; // NAME=COMMAND, run from this folder
  const check = spawnSync(arena, ['check-bot', '--log-dir', 'build/check-bot', bot], {
    cwd: __dirname,
    encoding: 'utf8',
  });
  assert.strictEqual(check.error, undefined, `cannot run ${arena}: ${check.error}`);
  assert.strictEqual(check.status, 0, check.stdout + check.stderr);
});
