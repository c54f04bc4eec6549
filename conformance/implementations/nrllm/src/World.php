<?php

// A scenario's world written into the in-memory database as nr-llm's columns store it, and the
// operator's changes between steps (adr/scenario.md, S002.1 to S002.3). A field a record never
// stored takes its column's default.

declare(strict_types=1);

namespace Gateproof\NrLlm;

final class World
{
    /** scenario field => [column, default] for each table */
    private const SNIPPET = [
        'identifier' => ['identifier', ''], 'name' => ['name', ''], 'text' => ['text', ''], 'data_class' => ['dataClass', ''],
        'tags' => ['tags', ''], 'active' => ['isActive', true], 'hidden' => ['hidden', false], 'deleted' => ['deleted', false],
        'sorting' => ['sorting', 0],
    ];
    private const SKILL = [
        'name' => ['name', ''], 'text' => ['text', ''], 'data_class' => ['dataClass', ''], 'enabled' => ['enabled', true],
        'hidden' => ['hidden', false], 'deleted' => ['deleted', false],
    ];
    private const CONFIGURATION = [
        'model' => ['model', null], 'selection_mode' => ['selectionMode', 'fixed'], 'fallbacks' => ['fallbacks', []],
        'system_prompt' => ['systemPrompt', ''], 'system_prompt_class' => ['systemPromptDataClass', ''],
        'snippet_tags' => ['snippetTags', ''], 'skills' => ['skills', []], 'active' => ['isActive', true],
        'deleted' => ['deleted', false],
    ];

    public bool $hasEnforcement;
    public mixed $enforcement;

    public function __construct(public Database $database, array $world)
    {
        foreach (self::listOf($world, 'providers') as $provider) {
            $database->providers[$provider['identifier']] = $provider;
        }
        foreach (self::listOf($world, 'models') as $model) {
            $database->models[$model['identifier']] = $model;
        }
        foreach (self::listOf($world, 'snippets') as $snippet) {
            $database->tables['PromptSnippet'][] = ['uid' => self::integral($snippet['uid'])] + self::columns(self::SNIPPET, $snippet);
        }
        foreach (self::listOf($world, 'skills') as $skill) {
            $database->tables['Skill'][] = ['uid' => self::integral($skill['uid'])] + self::columns(self::SKILL, $skill);
        }
        // A configuration has no uid in the scenario: its row's uid is its position in the world.
        foreach (self::listOf($world, 'configurations') as $index => $configuration) {
            $database->tables['LlmConfiguration'][] = ['uid' => $index + 1, 'identifier' => $configuration['identifier'], 'name' => '', 'sorting' => 0]
                + self::columns(self::CONFIGURATION, $configuration);
        }
        $this->hasEnforcement = array_key_exists('enforcement', $world);
        $this->enforcement = $world['enforcement'] ?? null;
    }

    /** The extension configuration nr_llm as stored: tools.dataClassEnforcement only when a value was stored. */
    public function extensionConfiguration(): array
    {
        return ['nr_llm' => ['tools' => $this->hasEnforcement ? ['dataClassEnforcement' => $this->enforcement] : []]];
    }

    /** The configuration row a step names by identifier, or null when the world holds none. */
    public function configurationRow(string $identifier): ?array
    {
        foreach ($this->database->tables['LlmConfiguration'] as $row) {
            if ($row['identifier'] === $identifier) {
                return $row;
            }
        }

        return null;
    }

    public function update(array $step, string $where): void
    {
        [$table, $fields, $key, $index] = $this->locate($step, $where);
        if ($table === 'providers') {
            $this->database->providers[$key] = $step['set'] + $this->database->providers[$key];

            return;
        }
        foreach ($step['set'] as $name => $value) {
            if (!isset($fields[$name])) {
                throw new InvalidScenario("$where.set.$name", "not a field of a {$step['kind']} that can change");
            }
            $this->database->tables[$table][$index][$fields[$name][0]] = self::stored($name, $value);
        }
    }

    public function delete(array $step, string $where): void
    {
        [$table, , $key, $index] = $this->locate($step, $where);
        if ($table === 'providers') {
            unset($this->database->providers[$key]);
        } else {
            $this->database->tables[$table][$index]['deleted'] = true;
        }
    }

    public function setEnforcement(array $step): void
    {
        $this->hasEnforcement = ($step['unset'] ?? false) !== true;
        $this->enforcement = $this->hasEnforcement ? ($step['value'] ?? null) : null;
    }

    /** @return array{string, array, string|int, int} the table, its fields, the record's key and its row index */
    private function locate(array $step, string $where): array
    {
        $kind = $step['kind'] ?? null;
        if ($kind === 'provider') {
            $identifier = $step['identifier'] ?? null;
            if (!is_string($identifier) || !isset($this->database->providers[$identifier])) {
                throw new InvalidScenario($where, 'no provider with identifier ' . json_encode($identifier));
            }

            return ['providers', [], $identifier, -1];
        }
        [$table, $fields, $keyName] = match ($kind) {
            'snippet' => ['PromptSnippet', self::SNIPPET, 'uid'],
            'skill' => ['Skill', self::SKILL, 'uid'],
            'configuration' => ['LlmConfiguration', self::CONFIGURATION, 'identifier'],
            default => throw new InvalidScenario("$where.kind", 'not a kind of record'),
        };
        $wanted = $keyName === 'uid' ? self::integral($step['uid'] ?? null) : ($step['identifier'] ?? null);
        foreach ($this->database->tables[$table] as $index => $row) {
            if ($row[$keyName] === $wanted) {
                return [$table, $fields, $wanted, $index];
            }
        }
        throw new InvalidScenario($where, "no $kind with $keyName " . json_encode($wanted));
    }

    private static function listOf(array $world, string $name): array
    {
        return is_array($world[$name] ?? null) ? $world[$name] : [];
    }

    private static function columns(array $fields, array $record): array
    {
        $row = [];
        foreach ($fields as $name => [$column, $default]) {
            $row[$column] = array_key_exists($name, $record) ? self::stored($name, $record[$name]) : $default;
        }

        return $row;
    }

    /** A value as its column stores it: a null class is the empty column, 1.0 an integer. */
    private static function stored(string $name, mixed $value): mixed
    {
        return match ($name) {
            'data_class', 'system_prompt_class' => $value ?? '',
            'sorting' => self::integral($value),
            'skills' => array_map(self::integral(...), $value),
            default => $value,
        };
    }

    public static function integral(mixed $value): mixed
    {
        return is_float($value) && floor($value) === $value && abs($value) < 2 ** 53 ? (int)$value : $value;
    }
}
