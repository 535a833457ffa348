ansible -i hosts dbservers --list-hosts --limit web*
