# shellcheck shell=sh
# fleetfix: for a compose service (ContainerRoute), enters the project's directory and sets the positional parameters
# to compose's -f options for the project's files, as its labels name them; exits 1 saying what is missing. Compose v2
# records each file with its absolute path; Debian's docker-compose (v1) as given on its command line, relative to
# where it ran, which no label records: such a file is looked for in the project's directory, then by its name there
# (v1's project directory is its first file's). No files: compose's default file in the directory. The caller
# prepends, quoted: project, workdir, files (comma-separated).
: "${project:=}" "${workdir:=}" "${files:=}"
set --
if [ -n "$project" ]; then
  cd "$workdir" 2>/dev/null || { echo "compose project $project: its directory $workdir is gone" >&2; exit 1; }
  fx_ifs=$IFS
  IFS=,
  for fx_file in $files; do
    fx_found=$fx_file
    case "$fx_file" in
      /*) ;;
      *) [ -f "$fx_file" ] || fx_found=${fx_file##*/} ;;
    esac
    [ -f "$fx_found" ] || {
      echo "compose project $project: no file $fx_file in $workdir (its containers were made from $files)" >&2
      exit 1
    }
    set -- "$@" -f "$fx_found"
  done
  IFS=$fx_ifs
fi
