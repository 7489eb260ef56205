# Prints its first argument, DBG_E2E and its working directory (the
# args/env/cwd conformance scenario).
puts "#{ARGV[0]} #{ENV['DBG_E2E']} #{Dir.pwd}"
