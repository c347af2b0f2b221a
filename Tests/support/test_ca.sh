#!/usr/bin/env bash
# Makes a test certificate authority and server certificates for Herald's https tests, with the
# openssl command-line tool only (never the system trust store):
#
#   Tests/support/test_ca.sh DIR
#
# writes into DIR (created if needed):
#   ca.pem, ca.key                 the test root CA: give ca.pem to `herald --ca-file`
#   other-ca.pem, other-ca.key     a second, unrelated root CA that Herald is never given
#   good.pem, good.key             IP:127.0.0.1 and DNS:localhost, valid now, signed by ca
#   expired.pem, expired.key       as good, but valid only in 2020
#   future.pem, future.key         as good, but valid only from a year from now
#   otherhost.pem, otherhost.key   valid now, but for DNS:example.org only
#   untrusted.pem, untrusted.key   as good, but signed by other-ca
#   insecure.pem, insecure.key     as good, but signed with SHA-1, which TLS clients refuse
#
# Keys are ECDSA P-256, signatures SHA-256 (but insecure's). Every file is made afresh in a scratch folder and
# then moved into DIR, so running it again leaves DIR complete and consistent. Prints nothing
# on success; on failure, says what failed (with openssl's output) on stderr and exits 1.
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
command -v openssl >/dev/null || { echo "test_ca.sh: openssl is not installed" >&2; exit 1; }
mkdir -p "$1" || { echo "test_ca.sh: cannot create $1" >&2; exit 1; }
out=$(cd "$1" && pwd)
work=$(mktemp -d "$out/.work.XXXXXX") || { echo "test_ca.sh: cannot write in $out" >&2; exit 1; }
trap 'rm -rf "$work"' EXIT
log="$work/openssl.log"
export OPENSSL_CONF=/dev/null RANDFILE="$work/.rnd"

# Runs openssl quietly; on failure shows what it said and stops.
run() {
  local what=$1
  shift
  if ! openssl "$@" >>"$log" 2>&1; then
    echo "test_ca.sh: openssl failed to make $what:" >&2
    sed 's/^/  /' "$log" >&2
    exit 1
  fi
}

stamp() { date -u -d "$1" +%Y%m%d%H%M%SZ; }
now_minus_day=$(stamp '-1 day')
in_ten_years=$(stamp '+10 years')
in_one_year=$(stamp '+1 year')
in_two_years=$(stamp '+2 years')

# A minimal `openssl ca` set-up per authority: `openssl ca` is the one tool of OpenSSL 3.0 that
# sets a certificate's start date, which expired and not-yet-valid certificates need.
setup_ca() {
  local name=$1
  mkdir -p "$work/$name/new"
  : >"$work/$name/index.txt"
  printf '1000\n' >"$work/$name/serial"
  cat >"$work/$name/openssl.cnf" <<EOF
[ ca ]
default_ca = test_ca

[ test_ca ]
dir = $work/$name
database = \$dir/index.txt
new_certs_dir = \$dir/new
serial = \$dir/serial
default_md = sha256
policy = any_name
email_in_dn = no
unique_subject = no
copy_extensions = none
default_days = 3650

[ any_name ]
organizationName = optional
commonName = supplied

[ root ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always

[ req ]
distinguished_name = dn
prompt = no

[ dn ]
CN = unused
EOF
}

# key FILE: a new ECDSA P-256 key.
key() { run "the key $(basename "$1")" genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

# root NAME "COMMON NAME": a self-signed root CA valid from 2019 for ten years from now, so
# every leaf's dates (even the expired one's) lie inside its own.
root() {
  local name=$1 cn=$2
  setup_ca "$name"
  key "$work/$name.key"
  run "the request of $name" req -new -config "$work/$name/openssl.cnf" -key "$work/$name.key" -subj "/O=Herald tests/CN=$cn" -out "$work/$name.csr"
  run "$name.pem" ca -batch -notext -config "$work/$name/openssl.cnf" -selfsign -keyfile "$work/$name.key" -extensions root \
    -startdate 20190101000000Z -enddate "$in_ten_years" -in "$work/$name.csr" -out "$work/$name.pem"
}

# leaf NAME CA SUBJECT_ALT_NAME START END [DIGEST]: a server certificate signed by CA.
leaf() {
  local name=$1 ca=$2 san=$3 start=$4 end=$5 digest=${6:-sha256}
  key "$work/$name.key"
  cat >"$work/$name.ext" <<EOF
[ server ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = $san
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
EOF
  run "the request of $name" req -new -config "$work/$ca/openssl.cnf" -key "$work/$name.key" -subj "/O=Herald tests/CN=$name" -out "$work/$name.csr"
  run "$name.pem" ca -batch -notext -config "$work/$ca/openssl.cnf" -cert "$work/$ca.pem" -keyfile "$work/$ca.key" \
    -extfile "$work/$name.ext" -extensions server -md "$digest" -startdate "$start" -enddate "$end" -in "$work/$name.csr" -out "$work/$name.pem"
}

root ca "Herald test CA"
root other-ca "Herald unrelated test CA"
leaf good ca "IP:127.0.0.1, DNS:localhost" "$now_minus_day" "$in_ten_years"
leaf expired ca "IP:127.0.0.1, DNS:localhost" 20200101000000Z 20210101000000Z
leaf future ca "IP:127.0.0.1, DNS:localhost" "$in_one_year" "$in_two_years"
leaf otherhost ca "DNS:example.org" "$now_minus_day" "$in_ten_years"
leaf untrusted other-ca "IP:127.0.0.1, DNS:localhost" "$now_minus_day" "$in_ten_years"
leaf insecure ca "IP:127.0.0.1, DNS:localhost" "$now_minus_day" "$in_ten_years" sha1

# Each leaf must chain to its CA (at a moment inside its dates); a check here makes a broken
# set-up fail here, not in a test.
for name in good otherhost; do
  run "a verifiable $name.pem" verify -CAfile "$work/ca.pem" "$work/$name.pem"
done
run "a verifiable expired.pem" verify -attime "$(date -u -d 2020-07-01 +%s)" -CAfile "$work/ca.pem" "$work/expired.pem"
run "a verifiable future.pem" verify -attime "$(date -u -d '+18 months' +%s)" -CAfile "$work/ca.pem" "$work/future.pem"
run "a verifiable untrusted.pem" verify -CAfile "$work/other-ca.pem" "$work/untrusted.pem"
run "a verifiable insecure.pem" verify -auth_level 0 -CAfile "$work/ca.pem" "$work/insecure.pem"

chmod 600 "$work"/*.key
for name in ca other-ca good expired future otherhost untrusted insecure; do
  mv -f "$work/$name.key" "$out/$name.key"
  mv -f "$work/$name.pem" "$out/$name.pem"
done
