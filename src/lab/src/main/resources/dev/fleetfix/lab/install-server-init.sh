# shellcheck shell=sh
# The body of the SysV script install_server.sh writes for a Redis built from source (Redis's utils/redis_init_script):
# after its LSB header and the assignments of HOST, PORT and CONF.
SERVER=/usr/local/bin/redis-server
CLI=/usr/local/bin/redis-cli
PIDFILE=/var/run/redis_$PORT.pid

case "$1" in
  start)
    if [ -f "$PIDFILE" ]; then
      echo "$PIDFILE exists: redis_$PORT is running, or crashed"
    else
      echo "starting redis_$PORT"
      $SERVER "$CONF"
    fi
    ;;
  stop)
    if [ ! -f "$PIDFILE" ]; then
      echo "$PIDFILE does not exist: redis_$PORT is not running"
    else
      PID=$(cat "$PIDFILE")
      echo "stopping redis_$PORT"
      $CLI -h "$HOST" -p "$PORT" shutdown
      while [ -x "/proc/$PID" ]; do
        echo "waiting for redis_$PORT to shut down"
        sleep 1
      done
      echo "redis_$PORT stopped"
    fi
    ;;
  status)
    PID=$(cat "$PIDFILE" 2>/dev/null)
    if [ -z "$PID" ] || [ ! -x "/proc/$PID" ]; then
      echo "redis_$PORT is not running"
    else
      echo "redis_$PORT is running ($PID)"
    fi
    ;;
  restart)
    "$0" stop
    "$0" start
    ;;
  *)
    echo "usage: $0 {start|stop|status|restart}"
    ;;
esac
