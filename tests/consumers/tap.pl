# Reads TAP on stdin with Perl's TAP::Parser (what `prove` runs) and prints
# what it made of it as JSON: each test point with its YAML diagnostics,
# the plan, and its parse errors.
use strict;
use warnings;
use TAP::Parser;
use JSON::PP;
my $tap = do { local $/; <STDIN> };
my $p = TAP::Parser->new({ tap => $tap });
my @tests;
while (my $r = $p->next) {
    if ($r->is_test) {
        push @tests, { ok => ($r->is_ok ? JSON::PP::true : JSON::PP::false), number => $r->number,
                       description => $r->description, skip => ($r->has_skip ? JSON::PP::true : JSON::PP::false) };
    } elsif ($r->is_yaml && @tests) {
        $tests[-1]{yaml} = $r->data;
    }
}
my @errors = $p->parse_errors;
print JSON::PP->new->canonical->encode({ tests => \@tests, errors => \@errors,
    planned => $p->tests_planned, run => $p->tests_run, version => $p->version,
    failed => [ $p->failed ] }), "\n";
