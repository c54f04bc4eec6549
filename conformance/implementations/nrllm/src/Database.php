<?php

// The stored records of a scenario's world as nr-llm's tables hold them, the SQL semantics of the
// queries its repositories build (deleted rows never answer, hidden ones only when enable fields are
// ignored, string equality and ORDER BY under the installation's collation), and the data mapper
// that reconstitutes rows as nr-llm's own entities, one object per uid within a request.

declare(strict_types=1);

namespace Gateproof\NrLlm;

use Netresearch\NrLlm\Domain\Model\LlmConfiguration;
use Netresearch\NrLlm\Domain\Model\Model;
use Netresearch\NrLlm\Domain\Model\PromptSnippet;
use Netresearch\NrLlm\Domain\Model\Provider;
use Netresearch\NrLlm\Domain\Model\Skill;
use TYPO3\CMS\Extbase\Persistence\QueryInterface;
use TYPO3\CMS\Extbase\Persistence\QueryResultInterface;
use TYPO3\CMS\Extbase\Persistence\QuerySettings;

final class Database
{
    public const CASE_SENSITIVE = 'case-sensitive';
    public const CASE_INSENSITIVE = 'case-insensitive';

    /** @var array<string, list<array<string, mixed>>> rows by table, in the order the world lists them */
    public array $tables = ['PromptSnippet' => [], 'Skill' => [], 'LlmConfiguration' => []];

    /** @var array<string, array<string, mixed>> providers and models by identifier */
    public array $providers = [];
    public array $models = [];

    /** @var array<string, object> the identity map of the current request */
    private array $identityMap = [];

    public function __construct(public string $collation = self::CASE_SENSITIVE) {}

    /** A new request: entities are reconstituted afresh from the rows as they are now. */
    public function newRequest(): void
    {
        $this->identityMap = [];
    }

    public function compareStrings(string $a, string $b): int
    {
        return $this->collation === self::CASE_INSENSITIVE ? strcmp(strtolower($a), strtolower($b)) : strcmp($a, $b);
    }

    public function valuesEqual(mixed $stored, mixed $wanted): bool
    {
        if (is_string($stored) && is_string($wanted)) {
            return $this->compareStrings($stored, $wanted) === 0;
        }
        if (is_bool($wanted)) {
            return (bool)$stored === $wanted;
        }

        return $stored == $wanted;
    }

    /** @return list<array<string, mixed>> the rows a query may see: never a deleted one, a hidden one only when enable fields are ignored */
    public function visibleRows(string $table, QuerySettings $settings): array
    {
        return array_values(array_filter(
            $this->tables[$table],
            static fn(array $row): bool => !$row['deleted'] && ($settings->ignoreEnableFields || !($row['hidden'] ?? false)),
        ));
    }

    public function entity(string $table, array $row): object
    {
        $key = $table . ':' . $row['uid'];

        return $this->identityMap[$key] ??= $this->reconstitute($table, $row);
    }

    private function reconstitute(string $table, array $row): object
    {
        return match ($table) {
            'PromptSnippet' => $this->snippet($row),
            'Skill' => $this->skill($row),
            'LlmConfiguration' => $this->configuration($row),
        };
    }

    private function snippet(array $row): PromptSnippet
    {
        $snippet = new PromptSnippet();
        $snippet->_setProperty('uid', $row['uid']);
        $snippet->setIdentifier($row['identifier']);
        $snippet->setName($row['name']);
        $snippet->setSnippet($row['text']);
        $snippet->setDataClass($row['dataClass']);
        $snippet->setTags($row['tags']);
        $snippet->setIsActive($row['isActive']);
        $snippet->setHidden($row['hidden']);
        $snippet->setSorting($row['sorting']);

        return $snippet;
    }

    private function skill(array $row): Skill
    {
        $skill = new Skill();
        $skill->_setProperty('uid', $row['uid']);
        $skill->setName($row['name']);
        $skill->setBody($row['text']);
        $skill->setDataClass($row['dataClass']);
        $skill->setEnabled($row['enabled']);

        return $skill;
    }

    private function configuration(array $row): LlmConfiguration
    {
        $configuration = new LlmConfiguration();
        $configuration->_setProperty('uid', $row['uid']);
        $configuration->setIdentifier($row['identifier']);
        $configuration->setLlmModel($row['model'] === null ? null : $this->model($row['model']));
        $configuration->setModelSelectionMode($row['selectionMode']);
        $configuration->setFallbackChain((string)json_encode(['configurationIdentifiers' => $row['fallbacks']]));
        $configuration->setSystemPrompt($row['systemPrompt']);
        $configuration->setSystemPromptDataClass($row['systemPromptDataClass']);
        $configuration->setSnippetTags($row['snippetTags']);
        $configuration->setIsActive($row['isActive']);
        // The skills relation: each related row that is not deleted, reconstituted through the identity
        // map, so a skill related twice is the same object, attached to the ObjectStorage each time.
        foreach ($row['skills'] as $uid) {
            foreach ($this->tables['Skill'] as $skillRow) {
                if ($skillRow['uid'] === $uid && !$skillRow['deleted']) {
                    $configuration->addSkill($this->entity('Skill', $skillRow));
                }
            }
        }

        return $configuration;
    }

    /** A model relation: the model the world holds under that identifier, with its provider if it still exists. */
    public function model(string $identifier): ?Model
    {
        $row = $this->models[$identifier] ?? null;
        if ($row === null) {
            return null;
        }

        return $this->identityMap['Model:' . $identifier] ??= $this->newModel($identifier, $row);
    }

    private function newModel(string $identifier, array $row): Model
    {
        $model = new Model();
        $model->setIdentifier($identifier);
        $model->setModelId($identifier);
        $providerRow = is_string($row['provider'] ?? null) ? ($this->providers[$row['provider']] ?? null) : null;
        if ($providerRow !== null) {
            $provider = new Provider();
            $provider->setIdentifier($providerRow['identifier']);
            $provider->setTrustZone(is_string($providerRow['zone'] ?? null) ? $providerRow['zone'] : '');
            $model->setProvider($provider);
        }

        return $model;
    }
}

/** The part of Extbase's query API nr-llm's repositories use, evaluated over the in-memory rows. */
final class Query
{
    private ?\Closure $constraint = null;

    public function __construct(
        private Database $database,
        private string $table,
        private QuerySettings $settings,
        private array $orderings,
    ) {}

    public function getQuerySettings(): QuerySettings
    {
        return $this->settings;
    }

    public function equals(string $property, mixed $value): \Closure
    {
        return fn(array $row): bool => $this->database->valuesEqual($row[$property] ?? null, $value);
    }

    public function in(string $property, array $values): \Closure
    {
        return function (array $row) use ($property, $values): bool {
            foreach ($values as $value) {
                if ($this->database->valuesEqual($row[$property] ?? null, $value)) {
                    return true;
                }
            }

            return false;
        };
    }

    public function logicalAnd(\Closure ...$constraints): \Closure
    {
        return static fn(array $row): bool => array_reduce($constraints, static fn(bool $all, \Closure $c): bool => $all && $c($row), true);
    }

    public function logicalOr(\Closure ...$constraints): \Closure
    {
        return static fn(array $row): bool => array_reduce($constraints, static fn(bool $any, \Closure $c): bool => $any || $c($row), false);
    }

    public function logicalNot(\Closure $constraint): \Closure
    {
        return static fn(array $row): bool => !$constraint($row);
    }

    public function matching(\Closure $constraint): self
    {
        $this->constraint = $constraint;

        return $this;
    }

    public function setOrderings(array $orderings): self
    {
        $this->orderings = $orderings;

        return $this;
    }

    public function execute(): QueryResultInterface
    {
        $rows = $this->database->visibleRows($this->table, $this->settings);
        if ($this->constraint !== null) {
            $rows = array_values(array_filter($rows, $this->constraint));
        }
        // ORDER BY the orderings in turn; rows equal on all of them keep the table's order.
        $positions = array_flip(array_keys($rows));
        uksort($rows, function (int $a, int $b) use ($rows, $positions): int {
            foreach ($this->orderings as $property => $direction) {
                $x = $rows[$a][$property] ?? null;
                $y = $rows[$b][$property] ?? null;
                $order = is_string($x) && is_string($y) ? $this->database->compareStrings($x, $y) : $x <=> $y;
                if ($order !== 0) {
                    return $direction === QueryInterface::ORDER_DESCENDING ? -$order : $order;
                }
            }

            return $positions[$a] <=> $positions[$b];
        });

        return new QueryResult(array_map(fn(array $row): object => $this->database->entity($this->table, $row), array_values($rows)));
    }

    public function count(): int
    {
        return count($this->execute());
    }
}

final class QueryResult implements QueryResultInterface
{
    /** @param list<object> $objects */
    public function __construct(private array $objects) {}

    public function getFirst(): mixed
    {
        return $this->objects[0] ?? null;
    }

    public function toArray(): array
    {
        return $this->objects;
    }

    public function count(): int
    {
        return count($this->objects);
    }

    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->objects);
    }
}
