ansible -i hosts nosuchgroup --list-hosts
