package dev.fleetfix.redis.topology;

/** A Redis server's replication role, as {@code INFO replication} reports it. */
public enum NodeRole {
    /** {@code role:master}. */
    PRIMARY,
    /** {@code role:slave}. */
    REPLICA,
    /** The server could not be asked. */
    UNKNOWN;

    public static NodeRole of(String infoRole) {
        if (infoRole == null) {
            return UNKNOWN;
        }
        return switch (infoRole) {
            case "master" -> PRIMARY;
            case "slave", "replica" -> REPLICA;
            default -> UNKNOWN;
        };
    }
}
