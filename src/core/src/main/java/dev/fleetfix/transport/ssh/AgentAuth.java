package dev.fleetfix.transport.ssh;

import java.io.IOException;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.Message;
import net.schmizz.sshj.common.SSHPacket;
import net.schmizz.sshj.transport.TransportException;
import net.schmizz.sshj.userauth.UserAuthException;
import net.schmizz.sshj.userauth.method.AbstractAuthMethod;

/**
 * SSH {@code publickey} authentication (RFC 4252 §7) with a key held by ssh-agent: the request
 * names the key, and once the server accepts it, the agent signs the session.
 */
final class AgentAuth extends AbstractAuthMethod {

    private final SshAgent agent;
    private final SshAgent.Identity identity;

    AgentAuth(SshAgent agent, SshAgent.Identity identity) {
        super("publickey");
        this.agent = agent;
        this.identity = identity;
    }

    /** RSA keys sign with SHA-2, which current OpenSSH requires; other types name themselves. */
    String algorithm() {
        String type = identity.keyType();
        return type.equals("ssh-rsa") ? "rsa-sha2-512" : type;
    }

    private int flags() {
        return identity.keyType().equals("ssh-rsa") ? SshAgent.RSA_SHA2_512 : 0;
    }

    @Override
    protected SSHPacket buildReq() throws UserAuthException {
        return request(false);
    }

    private SSHPacket request(boolean signed) throws UserAuthException {
        return super.buildReq().putBoolean(signed).putString(algorithm()).putString(identity.blob());
    }

    @Override
    public void handle(Message cmd, SSHPacket buf) throws UserAuthException, TransportException {
        if (cmd != Message.USERAUTH_60) {
            super.handle(cmd, buf);
            return;
        }
        SSHPacket request = request(true);
        byte[] signedData = new Buffer.PlainBuffer()
                .putString(params.getTransport().getSessionID())
                .putBuffer(request)
                .getCompactData();
        byte[] signature;
        try {
            signature = agent.sign(identity.blob(), signedData, flags());
        } catch (IOException e) {
            throw new UserAuthException("ssh-agent could not sign with " + this, e);
        }
        params.getTransport().write(request.putString(signature));
    }

    @Override
    public String toString() {
        return "ssh-agent key " + identity.keyType() + " " + identity.comment();
    }
}
