'use strict';
// The sources a send injects, named and classed, in composition order (ADR-144, ADR-155, ADR-164).
const { parseDataClass } = require('./ladder');
const { phpTrim, asciiLower, compareCodePoints } = require('./text');
const { field, isDeleted } = require('./world');

function source(name, dataClass) {
  return { source: name, data_class: dataClass };
}

// C144.8: a snippet is named by its trimmed identifier, or by its display name as stored when it has none.
function snippetName(snippet) {
  const identifier = phpTrim(String(field(snippet, 'identifier', '')));
  return `snippet "${identifier !== '' ? identifier : field(snippet, 'name', '')}"`;
}

// C144.8: a skill is named by its display name, never its identifier.
function skillName(skill) {
  return `skill "${field(skill, 'name', '')}"`;
}

// C144.1: a snippet's or skill's class is its stored class read by exact match, with no default.
function declaredClassOf(record) {
  return parseDataClass(field(record, 'data_class', null));
}

function snippetSource(snippet) {
  return source(snippetName(snippet), declaredClassOf(snippet));
}

function skillSource(skill) {
  return source(skillName(skill), declaredClassOf(skill));
}

// C155.1, C155.2, C155.3: the stored prompt is listed only when it declares a class,
// and an exactly empty prompt declares nothing whatever its stored class.
function systemPromptSource(configuration) {
  const dataClass = parseDataClass(field(configuration, 'system_prompt_class', null));
  if (dataClass === null || field(configuration, 'system_prompt', '') === '') return [];
  return [source(`system prompt of "${configuration.identifier}"`, dataClass)];
}

// C144.4: the configuration's tags, split on commas, trimmed, lowercased, de-duplicated in written order.
function snippetTagList(configuration) {
  const tags = String(field(configuration, 'snippet_tags', '')).split(',').map((tag) => asciiLower(phpTrim(tag)));
  return [...new Set(tags)];
}

// C144.4: a snippet holds a tag when one of its comma-separated tags equals it after trim and lowercasing.
function hasTag(snippet, tag) {
  return String(field(snippet, 'tags', '')).split(',').some((own) => asciiLower(phpTrim(own)) === tag);
}

// C144.19: a string as the installation's collation compares it.
function collated(text, collation) {
  return collation === 'case-insensitive' ? asciiLower(text) : text;
}

function bySortingThenName(collation) {
  const name = (record) => collated(String(field(record, 'name', '')), collation);
  return (a, b) => field(a, 'sorting', 0) - field(b, 'sorting', 0) || compareCodePoints(name(a), name(b));
}

// C144.4, C144.19: the active, undeleted snippets holding one tag, by sorting then name under the
// installation's collation (equal ones in the world's order); an empty tag selects nothing.
function lookupActiveByTag(snippets, tag, collation) {
  if (tag === '') return [];
  const holding = snippets.filter((snippet) => field(snippet, 'active', true) && !isDeleted(snippet) && hasTag(snippet, tag));
  return holding.sort(bySortingThenName(collation));
}

// C144.5: hidden snippets never enter the selection, and a record reached through several
// tags is kept once, keyed by its trimmed, lowercased identifier, or its uid without one.
function selectedSnippets(configuration, snippets, collation) {
  const seen = new Set();
  const selected = [];
  for (const tag of snippetTagList(configuration)) {
    for (const snippet of lookupActiveByTag(snippets, tag, collation)) {
      const identifier = asciiLower(phpTrim(String(field(snippet, 'identifier', ''))));
      const key = identifier !== '' ? `identifier:${identifier}` : `uid:${snippet.uid}`;
      if (field(snippet, 'hidden', false) || seen.has(key)) continue;
      seen.add(key);
      selected.push(snippet); // C144.6: an empty text is still listed with its class
    }
  }
  return selected;
}

// C144.7: every undeleted skill the relation holds, in the relation's order, enabled or not, hidden or not;
// under nr-llm a skill related twice is listed once, at its first place.
function attachedSkills(configuration, skills, once) {
  const stored = field(configuration, 'skills', []);
  const related = Array.isArray(stored) ? stored : [];
  return (once ? [...new Set(related)] : related)
    .map((uid) => skills.find((skill) => skill.uid === uid))
    .filter((skill) => skill !== undefined && !isDeleted(skill));
}

// C144.3: the configuration's own sources: system prompt, tag-selected snippets, attached skills.
function configurationSources(configuration, world) {
  return [
    ...systemPromptSource(configuration),
    ...selectedSnippets(configuration, world.snippets, world.collation).map(snippetSource),
    ...attachedSkills(configuration, world.skills, world.switches.has('attached_skills_once')).map(skillSource),
  ];
}

// C144.3, C164.2, C164.3: the configuration's sources, then each forced snippet and then each
// forced skill whose exact name is not yet listed; configuration entries are never de-duplicated.
function listSources(configuration, world, forced) {
  const listed = configurationSources(configuration, world);
  const names = new Set(listed.map((entry) => entry.source));
  const forcedSources = [...forced.snippets.map(snippetSource), ...forced.skills.map(skillSource)];
  for (const entry of forcedSources) {
    if (names.has(entry.source)) continue;
    names.add(entry.source);
    listed.push(entry);
  }
  return listed;
}

module.exports = { configurationSources, listSources, collated };
