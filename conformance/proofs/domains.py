"""What an invariant speaks about: single sends, playground sends, run stories or gateway calls.

A domain says how its subjects are judged (on z3 terms or on values), which
facts every subject satisfies, how a subject becomes scenario documents and
how a replayed outcome is read back into verdicts. The engine and the replay
are the same for all three.
"""

from __future__ import annotations

from typing import Callable

from attrs import frozen

from . import decode
from .gateway_call import lab_reason, verdict_of_reason, well_formed_call
from .gateway_decode import gateway_documents, gateway_verdicts_of
from .run_story import judge_playground_send, judge_story, well_formed_story
from .run_story_decode import playground_documents, playground_verdicts_of, story_documents, story_verdicts_of
from .send import well_formed


@frozen
class Domain:
    name: str
    #: (semantics, subject, ops) -> the subject's verdicts, in order.
    judge: Callable
    #: subject -> the z3 facts every subject satisfies.
    well_formed: Callable
    #: (title, claim, semantics, subjects) -> [(scenario document, indices of the subjects it holds)].
    documents: Callable
    #: outcome -> one tuple of verdicts per subject the document holds.
    verdicts_of: Callable


def _judge_send(semantics, send, ops):
    return (semantics.judge(send, ops),)


def _judge_call(semantics, call, ops):
    decide = semantics.gateway_reason or lab_reason
    return (verdict_of_reason(decide(call, ops), ops),)


SENDS = Domain("send", _judge_send, well_formed, decode.scenario_documents, lambda outcome: [(v,) for v in decode.verdicts_of(outcome)])
RUN_STORIES = Domain("run story", judge_story, well_formed_story, story_documents, story_verdicts_of)
#: A run story's records sent once through the playground: its forced sets resolved by the playground's lookups.
PLAYGROUND_SENDS = Domain("playground send", judge_playground_send, well_formed_story, playground_documents, playground_verdicts_of)
GATEWAY_CALLS = Domain("gateway call", _judge_call, well_formed_call, gateway_documents, gateway_verdicts_of)
