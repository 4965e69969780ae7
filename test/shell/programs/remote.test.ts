import { programRows } from '../../helpers/program-rows';

// Clients of clusters, clouds and forges: what asks or changes the remote is network; what writes
// here, runs elsewhere, sets their configuration or is not listed is opaque.
programRows('kubectl', [
  ['kubectl get pods', { level: 'network', kind: 'network', opaque: false, effects: [] }],
  ['kubectl --context=prod -n kube-system get pods -o wide', { level: 'network', opaque: false }],
  ['kubectl -n delete get pods', { level: 'network', opaque: false }],
  ['kubectl describe pod web-1', { level: 'network', opaque: false }],
  ['kubectl logs -f web-1 -c app', { level: 'network', opaque: false }],
  ['kubectl delete pod web-1', { level: 'network', opaque: false }],
  ['kubectl apply -f deploy.yaml', { level: 'network', opaque: false }],
  ['kubectl get pods --help', { level: 'read_only' }],
  ['kubectl config view', { level: 'read_only', opaque: false }],
  ['kubectl config current-context', { level: 'read_only', opaque: false }],
  ['kubectl config set-credentials u --exec-command=./x', { level: 'process_exec', opaque: 'not a subcommand' }],
  ['kubectl exec -it web-1 -- sh', { level: 'network', opaque: 'another host' }],
  ['kubectl cp web-1:/etc/passwd ./passwd', { level: 'process_exec', opaque: true }],
  ['kubectl frob', { level: 'process_exec', opaque: 'not a subcommand' }],
]);

programRows('gh', [
  ['gh pr list', { level: 'network', kind: 'network', opaque: false, effects: [] }],
  ['gh -R owner/repo pr view 12 --json title', { level: 'network', opaque: false }],
  ['gh pr merge 12 --squash', { level: 'network', opaque: false }],
  ['gh issue create --title x --body y', { level: 'network', opaque: false }],
  ['gh api repos/o/r/pulls', { level: 'network', opaque: false }],
  ['gh search repos persona', { level: 'network', opaque: false }],
  ['gh auth status', { level: 'network', opaque: false }],
  ['gh pr checkout 12', { level: 'network', opaque: 'not a subcommand' }],
  ['gh repo clone o/r', { level: 'network', opaque: true }],
  ['gh run download 5 -D out', { level: 'network', opaque: true }],
  ['gh config get editor', { level: 'read_only', opaque: false }],
  ['gh config set editor vim', { level: 'process_exec', opaque: true }],
  ['gh alias set co "pr checkout"', { level: 'process_exec', opaque: true }],
  ['gh extension install o/gh-x', { level: 'process_exec', opaque: true }],
  ['gh my-extension', { level: 'process_exec', opaque: 'not a subcommand' }],
  ['gh --version', { level: 'read_only' }],
  ['gh help', { level: 'read_only' }],
]);

programRows('aws', [
  ['aws s3 ls s3://bucket', { level: 'network', kind: 'network', opaque: false, effects: [] }],
  ['aws --profile prod --region eu-west-1 ec2 describe-instances', { level: 'network', opaque: false }],
  ['aws ec2 terminate-instances --instance-ids i-1', { level: 'network', opaque: false }],
  ['aws s3 cp s3://bucket/key .claude/settings.json', { level: 'network', opaque: true }],
  ['aws s3 sync . s3://bucket', { level: 'network', opaque: true }],
  ['aws s3api get-object --bucket b --key k out.bin', { level: 'network', opaque: true }],
  ['aws s3api list-buckets', { level: 'network', opaque: false }],
  ['aws lambda invoke --function-name f out.json', { level: 'network', opaque: true }],
  ['aws lambda list-functions', { level: 'network', opaque: false }],
  ['aws ssm start-session --target i-1', { level: 'network', opaque: 'another host' }],
  ['aws configure list', { level: 'read_only', opaque: false }],
  ['aws configure set region eu-west-1', { level: 'process_exec', opaque: true }],
  ['aws help', { level: 'read_only' }],
  ['aws --version', { level: 'read_only' }],
]);

programRows('gcloud', [
  ['gcloud compute instances list', { level: 'network', kind: 'network', opaque: false }],
  ['gcloud --project p run services describe web --format=json', { level: 'network', opaque: false }],
  ['gcloud compute ssh vm-1', { level: 'network', opaque: 'another host' }],
  ['gcloud compute scp vm-1:/etc/x .', { level: 'network', opaque: true }],
  ['gcloud storage ls gs://b', { level: 'network', opaque: false }],
  ['gcloud storage cp gs://b/k out', { level: 'network', opaque: true }],
  ['gcloud components install beta', { level: 'network', opaque: 'downloads' }],
  ['gcloud components list', { level: 'read_only', opaque: false }],
  ['gcloud config list', { level: 'read_only', opaque: false }],
  ['gcloud config configurations list', { level: 'read_only', opaque: false }],
  ['gcloud config configurations create c2', { level: 'process_exec', opaque: true }],
  ['gcloud config set project p', { level: 'process_exec', opaque: true }],
  ['gcloud version', { level: 'read_only' }],
  ['gcloud info', { level: 'read_only' }],
  ['gcloud help compute', { level: 'read_only' }],
  ['gcloud topic formats', { level: 'read_only' }],
]);

programRows('az', [
  ['az vm list -o table', { level: 'network', kind: 'network', opaque: false }],
  ['az group delete -n rg', { level: 'network', opaque: false }],
  ['az find "vm create"', { level: 'network', opaque: false }],
  ['az storage account list', { level: 'network', opaque: false }],
  ['az storage blob download --file out -c c -n k', { level: 'network', opaque: true }],
  ['az extension list', { level: 'read_only', opaque: false }],
  ['az extension add --name x', { level: 'network', opaque: 'downloads' }],
  ['az ssh vm -n vm-1', { level: 'network', opaque: 'another host' }],
  ['az config get', { level: 'read_only', opaque: false }],
  ['az config set core.output=json', { level: 'process_exec', opaque: true }],
  ['az version', { level: 'read_only' }],
  ['az help', { level: 'read_only' }],
]);
