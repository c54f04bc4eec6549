<?php

// The framework classes nr-llm's rule classes touch, reduced to the infrastructure they need:
// logging (PSR-3), the extension configuration, the entity base, ObjectStorage and the repository
// and query API of Extbase. No rule of nr-llm lives here; queries are answered by the in-memory
// database in src/Database.php, which gives them the semantics of the real SQL.

declare(strict_types=1);

namespace Psr\Log {
    interface LoggerInterface
    {
        public function warning(string|\Stringable $message, array $context = []): void;
    }

    interface LoggerAwareInterface
    {
        public function setLogger(LoggerInterface $logger): void;
    }

    trait LoggerAwareTrait
    {
        protected ?LoggerInterface $logger = null;

        public function setLogger(LoggerInterface $logger): void
        {
            $this->logger = $logger;
        }
    }
}

namespace TYPO3\CMS\Core {
    interface SingletonInterface {}
}

namespace TYPO3\CMS\Core\Configuration {
    /** The extension configuration, as the scenario's world stores it. */
    class ExtensionConfiguration
    {
        /** @param array<string, mixed> $byExtension */
        public function __construct(public array $byExtension = []) {}

        public function get(string $extension, string $path = ''): mixed
        {
            return $this->byExtension[$extension] ?? [];
        }
    }
}

namespace TYPO3\CMS\Extbase\DomainObject {
    abstract class AbstractDomainObject
    {
        protected ?int $uid = null;
        protected ?int $pid = null;

        public function getUid(): ?int
        {
            return $this->uid;
        }

        public function getPid(): ?int
        {
            return $this->pid;
        }

        public function setPid(int $pid): void
        {
            $this->pid = $pid;
        }

        /** What Extbase's data mapper calls to set a property while reconstituting a row. */
        public function _setProperty(string $propertyName, mixed $value): bool
        {
            $this->{$propertyName} = $value;

            return true;
        }
    }

    abstract class AbstractEntity extends AbstractDomainObject {}
}

namespace TYPO3\CMS\Extbase\Persistence {
    use ArrayAccess;
    use Countable;
    use Iterator;

    /** Extbase's ObjectStorage: an object is held once, keyed by its identity, in attach order. */
    class ObjectStorage implements Countable, Iterator, ArrayAccess
    {
        /** @var array<string, array{obj: object, inf: mixed}> */
        protected array $storage = [];

        public function attach(object $object, mixed $information = null): void
        {
            $this->storage[spl_object_hash($object)] = ['obj' => $object, 'inf' => $information];
        }

        public function detach(object $object): void
        {
            unset($this->storage[spl_object_hash($object)]);
        }

        public function contains(object $object): bool
        {
            return isset($this->storage[spl_object_hash($object)]);
        }

        public function toArray(): array
        {
            return array_values(array_map(static fn(array $entry): object => $entry['obj'], $this->storage));
        }

        public function count(): int
        {
            return count($this->storage);
        }

        public function current(): mixed
        {
            $entry = current($this->storage);

            return $entry === false ? null : $entry['obj'];
        }

        public function next(): void
        {
            next($this->storage);
        }

        public function key(): mixed
        {
            return key($this->storage);
        }

        public function valid(): bool
        {
            return current($this->storage) !== false;
        }

        public function rewind(): void
        {
            reset($this->storage);
        }

        public function offsetExists(mixed $offset): bool
        {
            return is_object($offset) && $this->contains($offset);
        }

        public function offsetGet(mixed $offset): mixed
        {
            return $this->storage[spl_object_hash($offset)]['inf'] ?? null;
        }

        public function offsetSet(mixed $offset, mixed $value): void
        {
            $this->attach($offset, $value);
        }

        public function offsetUnset(mixed $offset): void
        {
            $this->detach($offset);
        }
    }

    interface QueryResultInterface extends Countable, \IteratorAggregate
    {
        public function getFirst(): mixed;

        public function toArray(): array;
    }

    interface QueryInterface
    {
        public const ORDER_ASCENDING = 'ASC';
        public const ORDER_DESCENDING = 'DESC';
    }

    /** The query settings the repositories set; only the enable-field flag changes an answer. */
    class QuerySettings
    {
        public bool $ignoreEnableFields = false;

        public function setRespectStoragePage(bool $respect): self
        {
            return $this;
        }

        public function setRespectSysLanguage(bool $respect): self
        {
            return $this;
        }

        public function setIgnoreEnableFields(bool $ignore): self
        {
            $this->ignoreEnableFields = $ignore;

            return $this;
        }

        public function setEnableFieldsToBeIgnored(array $fields): self
        {
            return $this;
        }
    }

    /** Extbase's Repository, answering from the in-memory database for its object type. */
    class Repository
    {
        protected $defaultOrderings = [];
        protected ?QuerySettings $defaultQuerySettings = null;

        public function __construct(protected \Gateproof\NrLlm\Database $database)
        {
            if (method_exists($this, 'initializeObject')) {
                $this->initializeObject();
            }
        }

        public function createQuery(): \Gateproof\NrLlm\Query
        {
            $settings = $this->defaultQuerySettings !== null ? clone $this->defaultQuerySettings : new QuerySettings();

            return new \Gateproof\NrLlm\Query($this->database, $this->table(), $settings, $this->defaultOrderings);
        }

        public function setDefaultQuerySettings(QuerySettings $settings): void
        {
            $this->defaultQuerySettings = $settings;
        }

        /** Extbase reads one record by uid through a fresh query that respects the enable fields. */
        public function findByUid(int $uid): ?object
        {
            $query = new \Gateproof\NrLlm\Query($this->database, $this->table(), new QuerySettings(), []);
            $query->matching($query->equals('uid', $uid));

            return $query->execute()->getFirst();
        }

        public function findAll(): QueryResultInterface
        {
            return $this->createQuery()->execute();
        }

        private function table(): string
        {
            $parts = explode('\\', static::class);

            return substr(end($parts), 0, -strlen('Repository'));
        }
    }
}

namespace TYPO3\CMS\Extbase\Mvc\Controller {
    /** Only for the controller class to load; none of its request handling is used. */
    abstract class ActionController {}
}
