'use strict';
// The two ways a scenario is not decided, kept apart so a front end can answer each in its own words.

// A scenario of a kind or rule version this implementation does not cover: it is skipped, not failed.
class UnsupportedScenario extends Error {}

// A document the rules cannot be applied to (S001.1), named by the field that breaks it.
class InvalidScenario extends Error {
  constructor(where, problem) {
    super(`${where}: ${problem}`);
  }
}

module.exports = { UnsupportedScenario, InvalidScenario };
