#!/usr/bin/perl
# latepgo.pm: the debhelper add-on "latepgo" (dh $@ --with latepgo, or
# DH_EXTRA_ADDONS=latepgo for a package left unchanged): one
# dpkg-buildpackage run trains the package and builds it with the
# profile.  dh_latepgo(1) says how.
#
# dh_latepgo runs first in the build sequence, before anything of the
# package's own: the generate build, the training, the merge and the
# clean happen there, in a build of their own (debian/rules build,
# then debian/rules clean).  The build that follows, dh's own, is the
# use build: its compiler flags are set here, when dh loads the add-on,
# from what "dh_latepgo --env" prints.  dh has already put the
# package's flags into the environment (set_buildflags), so the specs
# file is appended to them there; dh_latepgo takes it off again for the
# generate build.  The report summary comes after dh_builddeb, at the
# end of the log.

use strict;
use warnings;
use Debian::Debhelper::Dh_Lib;

if (!$ENV{DH_LATEPGO_PHASE}) {
	open(my $env, '-|', 'dh_latepgo', '--env')
	    or error("dh_latepgo --env: $!");
	while (my $line = <$env>) {
		chomp $line;
		my ($name, $value) = split(/=/, $line, 2);
		next unless defined $value;
		$ENV{"DH_LATEPGO_SAVED_$name"} = $ENV{$name} // ''
		    unless exists $ENV{"DH_LATEPGO_SAVED_$name"};
		$ENV{$name} = $value;
	}
	close($env) or error("dh_latepgo --env failed");
}

insert_before('dh_update_autotools_config', 'dh_latepgo');
insert_after('dh_builddeb', 'dh_latepgo_report');

1;
