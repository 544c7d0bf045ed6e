package dev.fleetfix.checks;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Everything {@code fleetfix audit} learns about one host, gathered by {@link HostAuditor} in one
 * remote command and one Redis connection. Reused by the playbook's {@code audit} step and the
 * reports; it holds no secret.
 *
 * @param host inventory name
 * @param kernelRelease {@code uname -r}
 * @param root whether the fact script ran as root (reading Redis's smaps needs it)
 * @param thp THP now
 * @param boot what sets THP at boot
 * @param overcommitMemory {@code vm.overcommit_memory}
 * @param somaxconn {@code net.core.somaxconn}
 * @param redis Redis as its port saw it
 * @param redisProcess the Redis process and its huge pages
 */
public record HostFacts(
        String host,
        String kernelRelease,
        boolean root,
        ThpFacts thp,
        ThpBoot boot,
        OptionalInt overcommitMemory,
        OptionalInt somaxconn,
        RedisFacts redis,
        RedisProcess redisProcess) {

    public HostFacts {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(kernelRelease, "kernelRelease");
        Objects.requireNonNull(thp, "thp");
        Objects.requireNonNull(boot, "boot");
        Objects.requireNonNull(overcommitMemory, "overcommitMemory");
        Objects.requireNonNull(somaxconn, "somaxconn");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(redisProcess, "redisProcess");
    }
}
