<?php

// A ceiling scenario's steps, each run through nr-llm's own code paths: the playground controller's
// reading of the request and its lookups, the classifier, the manager's gate call, the codec's
// rehydration of a queued payload, the suspended state's own reading and the tool loop's rebuild
// of the forced set on resume. Each step is a new request against the records as they are then.

declare(strict_types=1);

namespace Gateproof\NrLlm;

use Netresearch\NrLlm\Domain\ValueObject\AgentRun;
use Netresearch\NrLlm\Domain\ValueObject\AgentRunReference;
use Netresearch\NrLlm\Domain\ValueObject\DroppedSource;
use Netresearch\NrLlm\Domain\ValueObject\GovernanceEvent;
use Netresearch\NrLlm\Domain\ValueObject\SuspendedRunState;
use Netresearch\NrLlm\Exception\InputContextTrustZoneException;
use Netresearch\NrLlm\Exception\InvalidArgumentException;
use Netresearch\NrLlm\Service\Agent\Exception\RunConfigurationGoneException;
use Netresearch\NrLlm\Service\Context\InputContextClassification;
use Netresearch\NrLlm\Service\Option\ToolOptions;
use Netresearch\NrLlm\Service\Tool\RunAugmentation;

final class Story
{
    /** The scenario's state keys and the suspended state's own. */
    private const STATE_KEYS = ['forced_snippet_uids' => 'forcedSnippetUids', 'forced_skill_uids' => 'forcedSkillUids'];

    private Database $database;
    private World $world;
    /** @var array<string, array<string, mixed>> runs by name */
    private array $runs = [];

    public function __construct(array $world, string $collation)
    {
        $this->database = new Database($collation);
        $this->world = new World($this->database, $world);
    }

    /** @param mixed $rawStep the same step decoded with objects kept apart from lists, to echo a stored state */
    public function step(array $step, mixed $rawStep, string $where): array
    {
        $wiring = new Wiring($this->database, $this->world);

        return match ($step['op']) {
            'send' => $this->send($wiring, $step, $where),
            'readout' => $this->readout($wiring, $step, $where),
            'classify' => $this->classify($wiring, $step, $where),
            'queue' => $this->queue($step, $where),
            'dequeue' => $this->dequeue($wiring, $step, $where),
            'suspend' => $this->suspend($step, $rawStep, $where),
            'resume' => $this->resume($wiring, $step, $where),
            'update' => $this->changed($step, fn() => $this->world->update($step, $where)),
            'delete' => $this->changed($step, fn() => $this->world->delete($step, $where)),
            'set_enforcement' => $this->world->setEnforcement($step) ?? ['op' => 'set_enforcement'],
            default => throw new InvalidScenario("$where.op", 'not a ceiling step'),
        };
    }

    private function changed(array $step, \Closure $change): array
    {
        $change();

        return ['op' => $step['op'], 'kind' => $step['kind']];
    }

    private function liveConfiguration(Wiring $wiring, array $step, string $where): object
    {
        $row = $this->world->configurationRow((string)($step['configuration'] ?? ''));
        $configuration = $row === null ? null : $wiring->configurations->findByUid($row['uid']);
        if ($configuration === null) {
            throw new InvalidScenario("$where.configuration", 'no configuration ' . json_encode($step['configuration'] ?? null) . ' that is not deleted');
        }

        return $configuration;
    }

    /** ToolPlaygroundController::runAction: the body's uid lists read and resolved as the controller does. */
    private function playgroundForced(Wiring $wiring, array $step): array
    {
        $body = ['forcedSkills' => $step['forced_skills'] ?? null, 'forcedSnippets' => $step['forced_snippets'] ?? null];
        $skills = $wiring->playground('resolveForcedSkills', $wiring->playground('uidListFromBody', $body, 'forcedSkills'));
        $snippets = $wiring->snippets->findByUids($wiring->playground('uidListFromBody', $body, 'forcedSnippets'));

        return [$snippets, $skills];
    }

    /** ToolPlaygroundController::contextClassification, for the forced set the request names. */
    private function readout(Wiring $wiring, array $step, string $where): array
    {
        $configuration = $this->liveConfiguration($wiring, $step, $where);
        [$snippets, $skills] = $this->playgroundForced($wiring, $step);
        $readout = $wiring->playground('contextClassification', $configuration, $snippets, $skills);

        return [
            'op' => 'readout',
            'sources' => array_map(static fn(array $s): array => ['source' => $s['source'], 'data_class' => $s['dataClass']], $readout['sources']),
            'effective' => $readout['effective'],
            'effective_source' => $readout['effectiveSource'],
        ];
    }

    /** InputContextClassifier::classify, with the sources it folds. */
    private function classify(Wiring $wiring, array $step, string $where): array
    {
        $configuration = $this->liveConfiguration($wiring, $step, $where);
        $effective = $wiring->classifier->classify($configuration);

        return [
            'op' => 'classify',
            'sources' => array_map(
                static fn(InputContextClassification $s): array => ['source' => $s->source, 'data_class' => $s->effective?->value],
                $wiring->classifier->sources($configuration),
            ),
            'effective' => $effective->effective?->value,
            'effective_source' => $effective->source,
        ];
    }

    private function send(Wiring $wiring, array $step, string $where): array
    {
        $configuration = $this->liveConfiguration($wiring, $step, $where);
        [$snippets, $skills] = $this->playgroundForced($wiring, $step);
        if (($step['dry_run'] ?? false) === true) {
            return ['op' => 'send', ...self::dryRun()];
        }
        // The playground passes the backend user in the tool options, which the manager turns into
        // the call metadata; the run the send belongs to is its agent run.
        $beUser = $step['be_user'] ?? null;
        $runUid = World::integral($step['run_uid'] ?? 0);
        $augmentation = new RunAugmentation(forcedSkills: $skills, forcedSnippets: $snippets);

        return ['op' => 'send', ...$this->gated($wiring, $configuration, is_int($beUser) ? $beUser : null, is_int($runUid) ? $runUid : 0, $augmentation, $step)];
    }

    /** The gate as the manager runs it before dispatch, and what it decided, threw and recorded. */
    private function gated(Wiring $wiring, object $configuration, ?int $beUser, int $runUid, ?RunAugmentation $augmentation, array $step): array
    {
        $servingModel = is_string($step['serving_model'] ?? null) ? $step['serving_model'] : null;
        $injected = $augmentation?->injectedContext();
        $metadata = $wiring->metadata->agentRun(new AgentRunReference($runUid, 'run')) + $wiring->metadata->budget($beUser, null);
        $exception = null;
        try {
            $wiring->assertContextPermitted($configuration, $metadata, $runUid, $injected, $servingModel);
        } catch (InputContextTrustZoneException $refused) {
            $exception = $refused->getMessage();
        }
        // The decision the gate reached, for the zone, ceiling and message it reports.
        $decision = $wiring->gate->decide($configuration, $wiring->servingModelForGate($configuration, $servingModel), $injected->snippets ?? [], $injected->skills ?? []);
        $name = match (true) {
            $decision->declaredClass === null => 'undeclared',
            !$decision->zoneRefused => 'permitted',
            $decision->isObservedOnly() => 'observed',
            default => 'refused',
        };

        return [
            'decision' => $name,
            'declared_class' => $decision->declaredClass?->value,
            'source' => $decision->source,
            'zone' => $decision->zone?->value,
            'ceiling' => $decision->ceiling?->value,
            'enforcing' => $decision->enforcing,
            'sent' => $exception === null,
            'message' => $decision->message(),
            'exception' => $exception,
            'audit' => array_map(self::audit(...), $wiring->events->recorded),
        ];
    }

    private static function audit(GovernanceEvent $event): array
    {
        return [
            'correlation_id' => $event->correlationId, 'decision' => $event->decision, 'reason' => $event->reason,
            'provider' => $event->provider, 'model' => $event->model, 'configuration' => $event->configurationIdentifier,
            'be_user' => $event->beUser, 'tool_name' => $event->toolName, 'agentrun_uid' => $event->agentrunUid,
            'guardrail' => $event->guardrail, 'detail' => $event->detail,
        ];
    }

    private static function dryRun(): array
    {
        return [
            'decision' => 'dry_run', 'declared_class' => null, 'source' => '', 'zone' => null, 'ceiling' => null,
            'enforcing' => null, 'sent' => false, 'message' => null, 'exception' => null, 'audit' => [],
        ];
    }

    /** The queued payload, with the forced uids and the dry-run flag as stored and the tool options every enqueuing path
     *  carries, as AgentRunRequestCodec::dehydrate writes them, read back on dequeue. */
    private function queue(array $step, string $where): array
    {
        $name = (string)$step['run'];
        if (isset($this->runs[$name])) {
            throw new InvalidScenario("$where.run", 'run ' . json_encode($name) . ' is already queued');
        }
        $row = $this->world->configurationRow((string)($step['configuration'] ?? ''));
        if ($row === null) {
            throw new InvalidScenario("$where.configuration", 'no configuration ' . json_encode($step['configuration'] ?? null));
        }
        $augmentation = ['forcedSkillUids' => $step['forced_skills'] ?? [], 'forcedSnippetUids' => $step['forced_snippets'] ?? []];
        if (array_key_exists('dry_run', $step)) {
            $augmentation['dryRun'] = $step['dry_run'];
        }
        $beUser = $step['be_user'] ?? 0;
        $this->runs[$name] = [
            'stage' => 'queued',
            'uid' => is_int(World::integral($step['uid'] ?? 0)) ? World::integral($step['uid'] ?? 0) : 0,
            'beUser' => is_int($beUser) ? $beUser : 0,
            'configurationUid' => $row['uid'],
            'configurationIdentifier' => $row['identifier'],
            'queuedRequest' => (string)json_encode(['messages' => [], ...self::dehydratedOptions(new ToolOptions()), 'augmentation' => $augmentation],
                JSON_PRESERVE_ZERO_FRACTION),
        ];

        return ['op' => 'queue', 'run' => $name];
    }

    /** The options and the fields dehydrate carries beside them, out of band: the budget, the key and the caller. */
    private static function dehydratedOptions(ToolOptions $options): array
    {
        return [
            'options' => $options->toArray(), 'plannedCost' => $options->getPlannedCost(), 'idempotencyKey' => $options->getIdempotencyKey(),
            'callerSourceExtension' => $options->getCallerSourceExtension(), 'callerSourceOperation' => $options->getCallerSourceOperation(),
        ];
    }

    private function run(array $step, string $where, string $stage): array
    {
        $name = (string)$step['run'];
        $run = $this->runs[$name] ?? null;
        if ($run === null) {
            throw new InvalidScenario("$where.run", 'no run ' . json_encode($name) . ' was queued');
        }
        if ($run['stage'] !== $stage && $run['stage'] !== 'ended') {
            throw new InvalidScenario("$where.run", 'run ' . json_encode($name) . " is {$run['stage']}, not $stage");
        }

        return $run;
    }

    private function agentRun(array $run, string $name): AgentRun
    {
        return new AgentRun(
            $run['uid'], $name, 'queued', $run['configurationUid'], $run['configurationIdentifier'], $run['beUser'],
            0, false, 0, 0, 0, 0.0, '', '', 0, 0, 0, queuedRequest: $run['queuedRequest'],
        );
    }

    /** AgentRunRequestCodec::rehydrate, then the first send of the run through the gate. */
    private function dequeue(Wiring $wiring, array $step, string $where): array
    {
        $name = (string)$step['run'];
        $run = $this->run($step, $where, 'queued');
        if ($run['stage'] === 'ended') {
            return ['op' => 'dequeue', 'run' => $name, 'ended' => $run['ended']];
        }
        try {
            $request = $wiring->codec->rehydrate($this->agentRun($run, $name));
        } catch (RunConfigurationGoneException) {
            $this->end($name, 'gone');

            return ['op' => 'dequeue', 'run' => $name, 'ended' => 'gone'];
        } catch (InvalidArgumentException) {
            // The payload's tool options refuse the row's user (below 0): QueuedRunCoordinator settles the run failed.
            $this->end($name, 'failed');

            return ['op' => 'dequeue', 'run' => $name, 'ended' => 'failed'];
        }
        $augmentation = $request->augmentation;
        $this->runs[$name]['stage'] = 'running';
        $this->runs[$name]['augmentation'] = $augmentation;
        if ($augmentation?->dryRun === true) {
            $result = self::dryRun();
            $this->end($name, 'dry run');
        } else {
            $result = $this->runSend($wiring, $name, $request->configuration, $augmentation, $step);
        }
        // RunTrace::recordDroppedSources: one step holding the list, only when it is not empty.
        $dropped = array_map(
            static fn(DroppedSource $d): array => ['kind' => $d->kind, 'uid' => $d->uid, 'reason' => $d->reason->value],
            $augmentation->droppedSources ?? [],
        );

        return ['op' => 'dequeue', ...$result, ...($dropped === [] ? [] : ['dropped' => $dropped]), 'run' => $name, ...self::uidsOf($augmentation)];
    }

    private function runSend(Wiring $wiring, string $name, object $configuration, ?RunAugmentation $augmentation, array $step): array
    {
        $run = $this->runs[$name];
        // The tool loop passes the run's backend user in the tool options, as the manager reads them.
        $result = $this->gated($wiring, $configuration, $run['beUser'], $run['uid'], $augmentation, $step);
        if ($result['decision'] === 'refused') {
            $this->end($name, 'refused');
        }

        return $result;
    }

    private static function uidsOf(?RunAugmentation $augmentation): array
    {
        $uids = static fn(array $records): array => array_map(static fn(object $r): ?int => $r->getUid(), $records);

        return ['forced_snippets' => $uids($augmentation->forcedSnippets ?? []), 'forced_skills' => $uids($augmentation->forcedSkills ?? [])];
    }

    private function end(string $name, string $why): void
    {
        $this->runs[$name]['stage'] = 'ended';
        $this->runs[$name]['ended'] = $why;
    }

    /** The tool loop's SuspendedRunState with the forced uids it runs with, or the stored state the step gives. */
    private function suspend(array $step, mixed $rawStep, string $where): array
    {
        $name = (string)$step['run'];
        $run = $this->run($step, $where, 'running');
        if ($run['stage'] === 'ended') {
            return ['op' => 'suspend', 'run' => $name, 'ended' => $run['ended']];
        }
        if (is_array($step['state'] ?? null)) {
            $shown = $rawStep->state;
            $stored = [];
            foreach ($step['state'] as $key => $value) {
                $stored[self::STATE_KEYS[$key] ?? $key] = $value;
            }
        } else {
            $wiring = new Wiring($this->database, $this->world);
            $augmentation = $run['augmentation'];
            $state = new SuspendedRunState([], [], 0, 0, 0,
                forcedSnippetUids: $wiring->loop('uidsOf', $augmentation->forcedSnippets ?? []),
                forcedSkillUids: $wiring->loop('uidsOf', $augmentation->forcedSkills ?? []),
            );
            $stored = $state->toArray();
            $shown = ['forced_snippet_uids' => $stored['forcedSnippetUids'], 'forced_skill_uids' => $stored['forcedSkillUids']];
        }
        $this->runs[$name]['stage'] = 'suspended';
        $this->runs[$name]['suspendedState'] = (string)json_encode($stored, JSON_PRESERVE_ZERO_FRACTION);

        return ['op' => 'suspend', 'run' => $name, 'reason' => $step['reason'] ?? 'approval', 'state' => $shown];
    }

    /** The resume: the configuration reloaded, the stored state decoded and its forced set rebuilt, then gated. */
    private function resume(Wiring $wiring, array $step, string $where): array
    {
        $name = (string)$step['run'];
        $run = $this->run($step, $where, 'suspended');
        $withInput = $step['with_input'] ?? false;
        if ($run['stage'] === 'ended') {
            return ['op' => 'resume', 'run' => $name, 'ended' => $run['ended'], 'with_input' => $withInput];
        }
        $configuration = $wiring->configurations->findByUid($run['configurationUid']);
        if ($configuration === null) {
            $this->end($name, 'gone');

            return ['op' => 'resume', 'run' => $name, 'ended' => 'gone', 'with_input' => $withInput];
        }
        $decoded = json_decode($run['suspendedState'], true);
        $augmentation = $wiring->loop('augmentationFrom', SuspendedRunState::fromArray(is_array($decoded) ? $decoded : []));
        $this->runs[$name]['stage'] = 'running';
        $this->runs[$name]['augmentation'] = $augmentation;
        $result = $this->runSend($wiring, $name, $configuration, $augmentation, $step);

        return ['op' => 'resume', ...$result, 'run' => $name, ...self::uidsOf($augmentation), 'with_input' => $withInput];
    }
}
