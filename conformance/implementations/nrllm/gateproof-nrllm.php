<?php

// gateproof-nrllm: gateproof scenarios decided by nr-llm's own classes, loaded from a checkout.
//
//   php gateproof-nrllm.php --src /path/to/t3x-nr-llm     the conformance protocol on stdin and stdout
//   NRLLM_SRC=/path/to/t3x-nr-llm php gateproof-nrllm.php  the same, the checkout named by the environment
//
// See README.md beside this file for what is driven through nr-llm's code and what is skipped.

declare(strict_types=1);

namespace Gateproof\NrLlm;

const PROTOCOL = 1;
const RULES = 'nr-llm';

final class InvalidScenario extends \RuntimeException
{
    public function __construct(string $where, string $problem)
    {
        parent::__construct("$where: $problem");
    }
}

function fail(string $message): never
{
    fwrite(STDERR, "gateproof-nrllm: $message\n");
    exit(2);
}

/** The checkout named by --src or NRLLM_SRC, checked to be nr-llm's. */
function checkout(array $argv): string
{
    $at = array_search('--src', $argv, true);
    $src = $at !== false ? ($argv[$at + 1] ?? '') : (string)getenv('NRLLM_SRC');
    if ($src === '') {
        fail('name an nr-llm checkout with --src DIR or NRLLM_SRC');
    }
    $composer = json_decode((string)@file_get_contents("$src/composer.json"), true);
    $autoload = $composer['autoload']['psr-4'] ?? null;
    if (($composer['name'] ?? null) !== 'netresearch/nr-llm' || !is_array($autoload)) {
        fail("$src is not a checkout of netresearch/nr-llm (no composer.json naming it)");
    }
    foreach ($autoload as $prefix => $directory) {
        spl_autoload_register(static function (string $class) use ($prefix, $directory, $src): void {
            if (str_starts_with($class, $prefix)) {
                $file = "$src/" . rtrim((string)$directory, '/') . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                if (is_file($file)) {
                    require $file;
                }
            }
        });
    }

    return $src;
}

function version(string $src): string
{
    // The commit of a git work tree (HEAD detached, or the branch it names), else the extension's version.
    $git = "$src/.git";
    if (is_file($git) && preg_match('/^gitdir: (.+)$/m', (string)file_get_contents($git), $m)) {
        $git = str_starts_with($m[1], '/') ? trim($m[1]) : "$src/" . trim($m[1]);  // a linked work tree
    }
    $head = trim((string)@file_get_contents("$git/HEAD"));
    if (str_starts_with($head, 'ref: ')) {
        $ref = substr($head, 5);
        $head = trim((string)@file_get_contents("$git/$ref"));
        if ($head === '' && preg_match('/^([0-9a-f]{40}) ' . preg_quote($ref, '/') . '$/m', (string)@file_get_contents("$git/packed-refs"), $m)) {
            $head = $m[1];
        }
    }
    if (preg_match('/^[0-9a-f]{40}$/', $head)) {
        return substr($head, 0, 8);
    }
    $emconf = (string)@file_get_contents("$src/ext_emconf.php");

    return preg_match("/'version'\\s*=>\\s*'([^']+)'/", $emconf, $m) ? $m[1] : 'unknown';
}

/** The outcome of one ceiling scenario under the nr-llm rules, or the reason it is skipped. */
function decide(array $scenario, object $raw): array
{
    $world = is_array($scenario['world'] ?? null) ? $scenario['world'] : [];
    $collation = $world['collation'] ?? Database::CASE_SENSITIVE;
    unset($world['collation']);
    $story = new Story($world, $collation);
    $results = [];
    foreach ($scenario['steps'] ?? [] as $index => $step) {
        if (!is_array($step) || !is_string($step['op'] ?? null)) {
            throw new InvalidScenario("\$.steps[$index]", 'not a ceiling step');
        }
        $results[] = $story->step($step, $raw->steps[$index], "\$.steps[$index]");
    }

    return ['gateproof' => 1, 'scenario' => $scenario['id'] ?? null, 'rules' => RULES, 'results' => $results];
}

function skipReason(array $scenario): ?string
{
    $kind = $scenario['kind'] ?? 'ceiling';
    if ($kind !== 'ceiling') {
        return "$kind scenarios are not nr-llm's: it has no tool-call gateway of this kind";
    }
    $rules = $scenario['rules'] ?? 'adr-179';
    if ($rules !== RULES) {
        return "nr-llm's code decides under the nr-llm profile only, not $rules";
    }

    return null;
}

function answer(array $command, object $raw): array
{
    $seq = $command['seq'] ?? null;
    $scenario = is_array($command['scenario'] ?? null) ? $command['scenario'] : [];
    $reason = skipReason($scenario);
    if ($reason !== null) {
        return ['seq' => $seq, 'skipped' => ['message' => $reason]];
    }
    try {
        return ['seq' => $seq, 'outcome' => decide($scenario, $raw->scenario)];
    } catch (\Throwable $error) {
        return ['seq' => $seq, 'errored' => ['message' => $error::class . ': ' . $error->getMessage(), 'context' => ['trace' => $error->getTraceAsString()]]];
    }
}

function encode(array $reply): string
{
    $flags = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION | JSON_INVALID_UTF8_SUBSTITUTE;

    return json_encode($reply, $flags) . "\n";
}

function serve(string $src): void
{
    $started = ['started' => [
        'protocol' => PROTOCOL, 'name' => 'nr-llm', 'version' => version($src), 'language' => 'php',
        'homepage' => 'https://github.com/netresearch/t3x-nr-llm', 'issues' => 'https://github.com/netresearch/t3x-nr-llm/issues',
        'rules' => [RULES], 'kinds' => ['ceiling'],
    ]];
    while (($line = fgets(STDIN)) !== false) {
        if (trim($line) === '') {
            continue;
        }
        // Decoded as a PHP request body is: large integers become floats. The object form keeps {} apart from [].
        $command = json_decode($line, true);
        $raw = json_decode($line, false);
        if (!is_array($command)) {
            if (preg_match('/"seq"\s*:\s*(\d+)/', $line, $m)) {
                fwrite(STDOUT, encode(['seq' => (int)$m[1], 'errored' => ['message' => 'PHP cannot decode this command: ' . json_last_error_msg()]]));
                continue;
            }
            fail('not a JSON command: ' . substr($line, 0, 80));
        }
        $reply = match ($command['cmd'] ?? null) {
            'start' => ($command['version'] ?? null) === PROTOCOL ? $started : fail('speaks protocol ' . PROTOCOL),
            'run' => answer($command, $raw),
            'stop' => null,
            default => fail('not a command: ' . substr($line, 0, 80)),
        };
        if ($reply === null) {
            return;
        }
        fwrite(STDOUT, encode($reply));
    }
}

// stdout carries the protocol alone: PHP's own messages go to stderr, and a warning in the code under test
// fails the scenario it arose in (errored, with the message) rather than passing unseen.
ini_set('display_errors', 'stderr');
set_error_handler(static function (int $level, string $message, string $file, int $line): bool {
    if (($level & (E_DEPRECATED | E_USER_DEPRECATED)) !== 0 || (error_reporting() & $level) === 0) {  // a deprecation, or silenced with @
        return false;
    }
    throw new \ErrorException($message, 0, $level, $file, $line);
});
$src = checkout($argv);
require __DIR__ . '/stubs/framework.php';
require __DIR__ . '/src/Database.php';
require __DIR__ . '/src/World.php';
require __DIR__ . '/src/Wiring.php';
require __DIR__ . '/src/Story.php';
serve($src);
