<?php

// nr-llm's own services for one request, wired as its container wires them, over the in-memory
// database. The routing service, the adapter registry and the governance event table are the
// infrastructure a scenario stands in for: routing answers with the model the step says it chose,
// no provider is ever called, and governance events are kept in a list.

declare(strict_types=1);

namespace Gateproof\NrLlm;

use Netresearch\NrLlm\Controller\Backend\ToolPlaygroundController;
use Netresearch\NrLlm\Domain\Enum\RoutingPolicyMode;
use Netresearch\NrLlm\Domain\Model\LlmConfiguration;
use Netresearch\NrLlm\Domain\Model\Model;
use Netresearch\NrLlm\Domain\Model\Provider;
use Netresearch\NrLlm\Domain\Repository\LlmConfigurationRepository;
use Netresearch\NrLlm\Domain\Repository\PromptSnippetRepository;
use Netresearch\NrLlm\Domain\Repository\SkillRepository;
use Netresearch\NrLlm\Domain\ValueObject\GovernanceEvent;
use Netresearch\NrLlm\Domain\ValueObject\ModelResolution;
use Netresearch\NrLlm\Domain\ValueObject\RoutingReadout;
use Netresearch\NrLlm\Provider\Contract\ProviderInterface;
use Netresearch\NrLlm\Provider\Middleware\ProviderOperation;
use Netresearch\NrLlm\Provider\ProviderAdapterRegistryInterface;
use Netresearch\NrLlm\Service\Agent\AgentRunRequestCodec;
use Netresearch\NrLlm\Service\CallMetadataFactory;
use Netresearch\NrLlm\Service\ConfigurationCallPlanner;
use Netresearch\NrLlm\Service\Context\InputContextClassifier;
use Netresearch\NrLlm\Service\Context\InputContextTrustGate;
use Netresearch\NrLlm\Service\Governance\DataClassEnforcementResolver;
use Netresearch\NrLlm\Service\Governance\GovernanceEventRepositoryInterface;
use Netresearch\NrLlm\Service\Governance\TrustZoneResolver;
use Netresearch\NrLlm\Service\LlmServiceManager;
use Netresearch\NrLlm\Service\ModelSelectionServiceInterface;
use Netresearch\NrLlm\Service\Prompt\ConfigurationSnippetResolver;
use Netresearch\NrLlm\Service\Prompt\PromptSnippetComposer;
use Netresearch\NrLlm\Service\Tool\ToolLoopService;
use TYPO3\CMS\Core\Configuration\ExtensionConfiguration;

final class Wiring
{
    public readonly PromptSnippetRepository $snippets;
    public readonly SkillRepository $skills;
    public readonly LlmConfigurationRepository $configurations;
    public readonly InputContextClassifier $classifier;
    public readonly InputContextTrustGate $gate;
    public readonly GovernanceEvents $events;
    public readonly AgentRunRequestCodec $codec;
    public readonly CallMetadataFactory $metadata;
    private readonly Routing $routing;
    private readonly LlmServiceManager $manager;
    private readonly ToolPlaygroundController $playground;
    private readonly ToolLoopService $loop;

    public function __construct(Database $database, World $world)
    {
        $database->newRequest();
        $this->snippets = new PromptSnippetRepository($database);
        $this->skills = new SkillRepository($database);
        $this->configurations = new LlmConfigurationRepository($database);
        $this->classifier = new InputContextClassifier(new ConfigurationSnippetResolver($this->snippets, new PromptSnippetComposer()));
        $this->events = new GovernanceEvents();
        $this->gate = new InputContextTrustGate(
            $this->classifier,
            new TrustZoneResolver($this->configurations),
            new DataClassEnforcementResolver(new ExtensionConfiguration($world->extensionConfiguration())),
            $this->events,
        );
        $this->codec = new AgentRunRequestCodec($this->configurations, $this->skills, $this->snippets);
        $this->metadata = new CallMetadataFactory();
        $this->routing = new Routing($database);
        // The manager, the playground controller and the tool loop are used for the part of each that
        // reads a rule (the gate call, the request's uids, the suspended forced set), so they are built
        // with those collaborators only, as their constructors would have set them.
        $this->manager = self::withProperties(LlmServiceManager::class, [
            'inputContextGate' => $this->gate,
            'planner' => new ConfigurationCallPlanner(new NoAdapters(), $this->routing),
            'metadata' => $this->metadata,
            'logger' => null,
        ]);
        $this->playground = self::withProperties(ToolPlaygroundController::class, [
            'skillRepository' => $this->skills,
            'promptSnippetRepository' => $this->snippets,
            'inputContextClassifier' => $this->classifier,
        ]);
        $this->loop = self::withProperties(ToolLoopService::class, [
            'promptSnippetRepository' => $this->snippets,
            'skillRepository' => $this->skills,
        ]);
    }

    /** LlmServiceManager::assertContextPermitted, with routing answering $servingModel in criteria mode. */
    public function assertContextPermitted(LlmConfiguration $configuration, array $metadata, int $runUid, ?object $injected, ?string $servingModel): void
    {
        $this->routing->answer = $servingModel;
        self::call($this->manager, 'assertContextPermitted', $configuration, $metadata, ProviderOperation::Chat, $runUid, $injected);
    }

    /** LlmServiceManager::servingModelForGate: the model the manager hands the gate. */
    public function servingModelForGate(LlmConfiguration $configuration, ?string $servingModel): ?Model
    {
        $this->routing->answer = $servingModel;

        return self::call($this->manager, 'servingModelForGate', $configuration, ProviderOperation::Chat);
    }

    public function playground(string $method, mixed ...$arguments): mixed
    {
        return self::call($this->playground, $method, ...$arguments);
    }

    public function loop(string $method, mixed ...$arguments): mixed
    {
        return self::call($this->loop, $method, ...$arguments);
    }

    private static function call(object $object, string $method, mixed ...$arguments): mixed
    {
        return \Closure::bind(fn(mixed ...$a): mixed => $this->{$method}(...$a), $object, $object::class)(...$arguments);
    }

    private static function withProperties(string $class, array $properties): object
    {
        $object = (new \ReflectionClass($class))->newInstanceWithoutConstructor();
        \Closure::bind(function () use ($properties): void {
            foreach ($properties as $name => $value) {
                $this->{$name} = $value;
            }
        }, $object, $class)();

        return $object;
    }
}

/** The governance event table, as a list of the events recorded. */
final class GovernanceEvents implements GovernanceEventRepositoryInterface
{
    /** @var list<GovernanceEvent> */
    public array $recorded = [];

    public function record(GovernanceEvent $event): void
    {
        $this->recorded[] = $event;
    }

    public function purgeOlderThan(int $timestamp): int
    {
        return 0;
    }

    public function countByDecision(int $since = 0): array
    {
        return [];
    }

    public function countToolDenialsByReason(int $since = 0): array
    {
        return [];
    }

    public function countToolDecisionsByName(int $since = 0): array
    {
        return [];
    }

    public function findForRun(int $agentRunUid, string $correlationId): array
    {
        return [];
    }
}

/** Model routing for a criteria-mode configuration: the model the step says routing chose, or none. */
final class Routing implements ModelSelectionServiceInterface
{
    public ?string $answer = null;

    public function __construct(private Database $database) {}

    public function resolveModel(LlmConfiguration $configuration, ?ProviderOperation $operation): ?Model
    {
        return $this->answer === null ? null : $this->database->model($this->answer);
    }

    public function resolveModelForCall(LlmConfiguration $configuration, ?ProviderOperation $operation): ModelResolution
    {
        return new ModelResolution($this->resolveModel($configuration, $operation), null);
    }

    public function explainRouting(LlmConfiguration $configuration, ?ProviderOperation $operation, ?RoutingPolicyMode $policyMode): RoutingReadout
    {
        throw new \LogicException('routing is not explained here');
    }

    public function findMatchingModel(array $criteria): ?Model
    {
        return null;
    }

    public function findCandidates(array $criteria): array
    {
        return [];
    }

    public function modelMatchesCriteria(Model $model, array $criteria): bool
    {
        return false;
    }
}

/** No provider is ever called: the gate runs before any dispatch. */
final class NoAdapters implements ProviderAdapterRegistryInterface
{
    public function getAdapterClass(string $adapterType): string
    {
        throw new \LogicException('no provider is called');
    }

    public function hasAdapter(string $adapterType): bool
    {
        return false;
    }

    public function getRegisteredAdapters(): array
    {
        return [];
    }

    public function createAdapterFromProvider(Provider $provider, bool $useCache = true): ProviderInterface
    {
        throw new \LogicException('no provider is called');
    }

    public function createAdapterFromModel(Model $model, bool $useCache = true): ProviderInterface
    {
        throw new \LogicException('no provider is called');
    }

    public function clearCache(?int $providerUid = null): void {}

    public function testProviderConnection(Provider $provider): array
    {
        return [];
    }
}
