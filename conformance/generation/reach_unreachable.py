"""What deciding a valid scenario document never reaches in the model, reviewed: each branch or function with why.

Keyed by the branch's function and text, or by the function for the whole
function (:mod:`.reach_keys`), so a key survives edits elsewhere in its file.
"""

from __future__ import annotations

#: Why the refusals of a catalog's reader are never reached by deciding a scenario.
CATALOG_READ = "S003: a generated scenario carries a valid catalog; what the reader refuses is tested by tests/test_gateway_catalog.py"
#: Reviewed: what deciding a valid scenario document never reaches, keyed by the branch's function and
#: text, or by the function for the whole function (:mod:`.reach_keys`), with why. A generated scenario is
#: valid by contract, so every branch that refuses an invalid document is here; the tests of the
#: readers (tests/test_input_fuzz.py and others) take those.
UNREACHABLE: dict[str, str] = {
    'model/lattice.py:permits': "permits is C094.5 on domain values for the model's callers; the gate calls zone_permits",
    'model/enforcement.py:mode_label': "mode_label is called by the explainer and the proofs' decoder; an outcome carries enforcing, not the label",
    'model/lifecycle.py:takes_configuration_only_path': 'takes_configuration_only_path is called by the explainer; the runner hands the gate the empty forced set itself',
    'model/uids.py:_as_decoded_php_int:if type(value) is int and abs(value) > _INT_MAX:': 'generated integers lie within ±(2**53 - 1) (conformance/PROTOCOL.md): one beyond 64 bits comes only from a file',
    'model/scenario/read_story.py:_changes:if name not in allowed:': 'invalid: an update setting a field its record has not',
    'model/scenario/read_story.py:_changes:if problem is not None:': 'invalid: an update setting a field to a value its schema refuses',
    'model/scenario/read_story.py:_record_key:if key_name not in fields or other in fields:': "invalid: an update or delete without its record's key, or with the other key too",
    'model/scenario/read_story.py:_record_key:if find_record(world, kind, key) is None:': 'invalid: an update or delete naming a record the world lacks',
    'model/scenario/read_story.py:read_story_step:if run in runs:': 'invalid: a run queued twice',
    'model/scenario/read_story.py:read_story_step:if configuration is None or configuration.deleted:': 'invalid: a queue naming a configuration the world lacks or holds deleted',
    'model/scenario/read_story.py:read_story_step:if run not in runs:': 'invalid: a step naming a run never queued',
    'model/scenario/read_story.py:read_story_step:if runs[run] != needed:': 'invalid: a step on a run in the wrong state (a resume before a suspend)',
    'model/scenario/read_story.py:read_story_step:if serving is not None and serving not in world.model_index:': 'invalid: a serving model the world lacks',
    'model/lattice.py:fold_ranks:if listed is not None:': 'only the proofs pass listed, so one term stands for every shorter list; the model folds the list it has',
    'model/scenario/read.py:read_world:if len(lookup.positions) != len(fields.get(where, ())):': 'invalid: two records of a table sharing a key',
    'model/scenario/read.py:_step:if configuration is None:': 'invalid: a send naming a configuration the world lacks',
    'model/scenario/read.py:_step:if configuration.deleted:': 'invalid: a send naming a configuration stored deleted',
    'model/scenario/read.py:_step:if serving is not None and serving not in world.model_index:': 'invalid: a serving model the world lacks',
    'model/scenario/schema.py:check_kind:if problem is not None:': 'invalid: a kind the schema does not list',
    'model/scenario/schema.py:validate:if not validator.is_valid(document):': 'invalid: a document the schema refuses',
    'model/scenario/document.py:check_size': "S001.4 is checked on a document's text, by its reader; a generated scenario is a value, never text",
    'model/scenario/document.py:check_depth': "S001.5 is checked on a document's text, by its reader; a generated scenario is a value, never text",
    'model/scenario/document.py:check_repeated_keys': "S001.6 is checked on a document's text, by its reader; a generated scenario is a value, never text",
    'model/scenario/document.py:too_deep:if not isinstance(document, (dict, list)):': 'too_deep is handed the document, always an object, by the readers',
    'model/scenario/document.py:too_deep:if depth > limit:': 'S001.5: a generated scenario nests far less than 64 levels',
    'model/scenario/document.py:_reads_back:if (orjson.loads(text) == document) is not True:': 'S001.12: a generated scenario reads back equal unless orjson cannot write it (a repeated key)',
    'model/scenario/document.py:_problem:if value is None or isinstance(value, int): # a bool is an int': 'S001.12: a generated scenario holds only JSON values',
    'model/scenario/document.py:_problem:if isinstance(value, tuple):': 'S001.12: a generated scenario holds no tuple',
    'model/scenario/document.py:_problem:if isinstance(value, (set, frozenset)):': 'S001.12: a generated scenario holds no set',
    'model/scenario/document.py:_refuse_what_json_cannot_carry:if problem is not None:': 'S001.12: a generated scenario holds only JSON values',
    'model/scenario/document.py:_refuse_what_json_cannot_carry:if depth > MAX_DEPTH: # a value holding itself is nested without end, and stops here': 'S001.5: a generated scenario nests far less than 64 levels',
    'model/scenario/document.py:_refuse_what_json_cannot_carry:if not isinstance(key, str):': "S001.12: a generated scenario's keys are strings",
    'model/tables.py:Lookup.__getitem__:if record is None:': 'the readers check every key a step names is in the world',
    'model/scenario/story.py:_run_gateway_or_unread:if isinstance(scenario, GatewayScenario):': 'a document handed to run_scenario unread is read first; a generated scenario is read by its caller',
    'model/scenario/story.py:_stored:if find_record(story.world, step.kind, step.key) is None:': 'invalid: an update or delete of a record an earlier step removed',
    'model/scenario/story.py:_single_send:if live_configuration(story.world, step.configuration) is None:': 'invalid: a step naming a configuration an earlier step deleted',
    'model/gateway/scenario.py:_unique:if record["id"] in seen:': 'invalid: two gateway records sharing an id',
    'model/gateway/scenario.py:_known:if value not in index:': 'invalid: a step naming a session or record the world lacks',
    'model/gateway/scenario.py:read_records:if key not in WORLD_TABLES and key not in kinds:': 'invalid: a world key no record kind of the catalog is stored under',
    'model/gateway/scenario.py:_record:if name not in (*RECORD_FIELDS, kind.tenant, kind.assignees):': 'invalid: a record field its kind does not name',
    'model/gateway/scenario.py:_record:if not isinstance(fields.get(kind.tenant), str) or not fields[kind.tenant]:': 'invalid: a record without its tenant',
    'model/gateway/scenario.py:_record:if not (isinstance(assignees, list) and all(isinstance(user, str) and user for user in assignees)):':
        'invalid: assignees that are not a list of names',
    'model/gateway/scenario.py:_record:if not isinstance(fields.get("content", ""), str):': 'invalid: content that is not text',
    'model/versions.py:declared:for declaration in DECLARATIONS:': 'the schema admits declared versions only, so the one named is always found',
    'model/gateway/catalog.py:read_catalog': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_unique_names': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_record_kinds': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_argument_bounds': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_named_argument': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_effect_fields': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_approval': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_catalog_semantics': CATALOG_READ,
}
