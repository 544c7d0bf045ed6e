package dev.fleetfix.redis.jedis;

import javax.net.ssl.SSLParameters;

/**
 * TLS to Redis checks the server's name as HTTPS does: its certificate must name the address fleetfix connects to
 * (a DNS name, or an IP address in its subject alternative names). Without it any certificate a trusted CA signed,
 * for any name, would be taken, and fleetfix would send the password to whoever holds one.
 */
final class RedisTls {
    private RedisTls() {}

    /** Parameters for Jedis's TLS sockets: the endpoint is identified by its name. */
    static SSLParameters verifyingName() {
        SSLParameters parameters = new SSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        return parameters;
    }
}
